import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// A group's members change and its people are told, in the conversation, through the binary on a default server —
/// also those who only run one-shot commands and so never see the server's notifications (docs/CLIENT.md §8).
@Suite("parley group: who left and who joined is said in the conversation", .serialized, .offThePool)
struct GroupMembershipNoticeTests {
    @Test func theRemovedMemberAndTheOthersAreToldWhatChanged() async throws {
        let scene = try await CLIScene.start("membership", people: ["ann", "bob", "carl", "dan"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl"), dan = scene.home("dan")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org", "--invite", "carl@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        #expect(try await run(["group", "accept", "--home", carl.path, "1"]).status == 0)
        #expect(try await run(["send", "--home", ann.path, "--conversation", "1", "welcome all"]).status == 0)
        #expect(try await run(["read", "--home", carl.path]).stdout.contains("welcome all"))

        #expect(try await run(["group", "remove", "--home", ann.path, "1", "bob@example.org"]).status == 0)
        #expect(try await run(["group", "add", "--home", ann.path, "1", "dan@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", dan.path, "1"]).status == 0)

        // Bob's next read says he is out, once; the group's history stays readable on his device.
        let bobReads = try await run(["read", "--home", bob.path])
        #expect(bobReads.stdout.contains("You are no longer a member of the group"), "\(bobReads.stdout)")
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("No new messages."))
        #expect(try await run(["read", "--home", bob.path, "--conversation", "1"]).stdout.contains("welcome all"))
        let refused = try await run(["send", "--home", bob.path, "--conversation", "1", "still here?"])
        #expect(refused.status != 0)

        // Carl, who stayed, reads who went and who came, in that order.
        let carlReads = try await run(["read", "--home", carl.path])
        let lines = carlReads.stdout.split(separator: "\n").map(String.init)
        let gone = try #require(lines.firstIndex { $0.contains("#local") && $0.contains("bob") && $0.contains("is no longer in this group.") }, "\(carlReads.stdout)")
        let came = try #require(lines.firstIndex { $0.contains("#local") && $0.contains("joined this group.") }, "\(carlReads.stdout)")
        #expect(gone < came)
        #expect(try await run(["read", "--home", carl.path]).stdout.contains("No new messages."), "told once")

        // Leaving is not news to the one who left; the others are told, and the history stays.
        #expect(try await run(["group", "leave", "--home", carl.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", carl.path]).stdout.contains("No new messages."))
        #expect(try await run(["read", "--home", carl.path, "--conversation", "1"]).stdout.contains("welcome all"))
        let annReads = try await run(["read", "--home", ann.path])
        // Named as the conversation signs their messages, with the address Ann knows them by.
        #expect(annReads.stdout.contains("] carl (carl@example.org) is no longer in this group."), "\(annReads.stdout)")
        try await scene.finish()
    }
}
