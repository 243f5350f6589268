import Foundation
import ParleyImage
import ParleyServer
import ParleyTestSupport
import Testing

/// The everyday commands that were missing (issue 21 item 12), as a person runs them on a default server:
/// a conversation's pins, deleting a conversation, declining an invitation, a group's picture.
@Suite("parley conversations pins/delete, group decline/avatar", .serialized, .offThePool)
struct ConversationCommandTests {
    @Test func pinsDeleteDeclineAndAGroupPicture() async throws {
        let scene = try await CLIScene.start("conversations", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob"), root = scene.root
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "the plan"]).status == 0)
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "small talk"]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).status == 0)
        #expect(try await run(["pin", "--home", bob.path, "1"]).stdout.contains("Pinned."))
        let pins = try await run(["conversations", "pins", "--home", ann.path, "1"])
        #expect(pins.stdout.contains("the plan") && !pins.stdout.contains("small talk"), "\(pins.stdout) \(pins.stderr)")
        // What did not change says so (a probe saw "Unpinned." for a message never pinned), and a conversation that is
        // not there is not one without pins.
        #expect(try await run(["pin", "--home", ann.path, "1"]).stdout.contains("Message 1 was already pinned."))
        let notPinned = try await run(["pin", "--home", ann.path, "2", "--unpin"])
        #expect(notPinned.status == 0 && notPinned.stdout.contains("Message 2 was not pinned; nothing changed."), "\(notPinned.stdout)")
        let elsewhere = try await run(["conversations", "pins", "--home", ann.path, "99"])
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("there is no conversation 99 on this device"), "\(elsewhere.stderr)")
        #expect(try await run(["conversations", "--home", ann.path]).stdout.contains("\tdirect\tbob\t"), "the list is still the default")

        // A group with a picture; bob declines it.
        let group = try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org"])
        #expect(group.status == 0, "\(group.stderr)")
        var pixels = [UInt8](repeating: 90, count: 64 * 48 * 3)
        for i in 0..<(64 * 48) { pixels[i * 3] = UInt8(i % 64 * 4) }
        let photo = root.appendingPathComponent("crag.jpg")
        try Data(try ImageCodec.encodeJPEG(try #require(RGBImage(width: 64, height: 48, pixels: pixels)))).write(to: photo)
        let picture = try await run(["group", "avatar", "--home", ann.path, "2", "--image", photo.path])
        #expect(picture.status == 0 && picture.stdout.contains("Set the picture of group 2"), "\(picture.stderr)")
        let declined = try await run(["group", "decline", "--home", bob.path, "2"])
        #expect(declined.status == 0 && declined.stdout.contains("Declined the invitation to group 2"), "\(declined.stderr)")
        #expect(try await run(["group", "invitations", "--home", bob.path]).stdout.contains("No invitations."))

        // Deleting the direct conversation: gone from both lists and from ann's history.
        let refused = try await run(["conversations", "delete", "--home", ann.path, "1"])
        #expect(refused.status != 0 && refused.stderr.contains("--yes"), "not at a terminal, it asks for --yes")
        let deleted = try await run(["conversations", "delete", "--home", ann.path, "1", "--yes"])
        #expect(deleted.status == 0 && deleted.stdout.contains("Deleted conversation 1."), "\(deleted.stderr)")
        #expect(!(try await run(["conversations", "--home", ann.path]).stdout.contains("\tdirect\t")))
        #expect(!(try await run(["conversations", "--home", bob.path]).stdout.contains("\tdirect\t")))
        #expect(!(try await run(["search", "--home", ann.path, "plan"]).stdout.contains("the plan")))
        try await scene.finish()
    }

    /// One account cannot bury a person under group invitations (docs/API.md §5): what each of them sees.
    @Test func aPersonHoldsAtMostTenUnansweredInvitationsFromOneAccount() async throws {
        let scene = try await CLIScene.start("invitations", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        for number in 1...10 {
            let made = try await run(["group", "create", "--home", ann.path, "Trip \(number)", "--invite", "bob@example.org"])
            #expect(made.status == 0 && made.stdout.contains("1 invited"), "\(made.stdout) \(made.stderr)")
        }
        let eleventh = try await run(["group", "create", "--home", ann.path, "Trip 11", "--invite", "bob@example.org"])
        #expect(eleventh.status != 0)
        #expect(eleventh.stderr.contains("bob@example.org has not answered 10 invitations to your groups"), "\(eleventh.stderr)")
        #expect(!eleventh.stderr.contains("quota_exceeded"), "the person's words, not the API's code")
        let invitations = try await run(["group", "invitations", "--home", bob.path])
        #expect(invitations.stdout.split(separator: "\n").count == 10, "\(invitations.stdout)")
        #expect(try await run(["conversations", "--home", ann.path]).stdout.split(separator: "\n").count == 10, "the refused group was not made")

        // Bob answers one; Ann may invite him once more.
        #expect(try await run(["group", "decline", "--home", bob.path, "1"]).status == 0)
        let again = try await run(["group", "create", "--home", ann.path, "Trip 11", "--invite", "bob@example.org"])
        #expect(again.status == 0 && again.stdout.contains("1 invited"), "\(again.stdout) \(again.stderr)")
        try await scene.finish()
    }

    /// Removing someone from a group by the e-mail one knows them by (an account id works too), and what each of the
    /// three then sees: the one removed gets nothing more, the others read on.
    @Test func removingAMemberByTheirEmail() async throws {
        let scene = try await CLIScene.start("group-remove", people: ["ann", "bob", "carol"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carol = scene.home("carol")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        let made = try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org", "--invite", "carol@example.org"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        #expect(try await run(["group", "accept", "--home", carol.path, "1"]).status == 0)
        let early = try await run(["conversations", "--home", carol.path])
        #expect(early.stdout.contains("3 members\t0 unread"), "nothing from before carol joined counts as unread: \(early.stdout)")

        let unknown = try await run(["group", "remove", "--home", ann.path, "1", "nobody@example.org"])
        #expect(unknown.status != 0 && unknown.stderr.contains("nobody@example.org has no Parley account on this server"), "\(unknown.stderr)")
        let removed = try await run(["group", "remove", "--home", ann.path, "1", "carol@example.org"])
        #expect(removed.status == 0 && removed.stdout.contains("Removed carol@example.org from group 1."), "\(removed.stdout) \(removed.stderr)")
        #expect(try await run(["send", "--home", ann.path, "--conversation", "1", "carol is off the trip"]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("carol is off the trip"))
        #expect(!(try await run(["read", "--home", carol.path]).stdout.contains("carol is off the trip")))
        #expect(try await run(["conversations", "--home", ann.path]).stdout.contains("2 members"))
        let byID = try await run(["group", "remove", "--home", ann.path, "1", "2"])
        #expect(byID.status == 0 && byID.stdout.contains("Removed account 2 from group 1."), "\(byID.stdout) \(byID.stderr)")
        try await scene.finish()
    }
}
