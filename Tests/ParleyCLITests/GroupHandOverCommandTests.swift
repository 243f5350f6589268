import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// A group whose creator leaves is not orphaned: whoever joined first takes over renaming, removing and deleting
/// (docs/API.md §5). Through the binary on a default server, every command a process of its own.
@Suite("parley group leave: the creator hands the group on", .serialized, .offThePool)
struct GroupHandOverCommandTests {
    @Test func theFirstToJoinTakesOverWhenTheCreatorLeaves() async throws {
        let scene = try await CLIScene.start("group-hand-over", people: ["ann", "bob", "carl", "dan"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl"), dan = scene.home("dan")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org", "--invite", "carl@example.org"]).status == 0)
        // Carl answers first, so Carl is next in line, not Bob.
        #expect(try await run(["group", "accept", "--home", carl.path, "1"]).status == 0)
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", ann.path]).status == 0)

        let left = try await run(["group", "leave", "--home", ann.path, "1"])
        #expect(left.status == 0 && left.stdout.contains("Left group 1."), "\(left.stdout)\(left.stderr)")
        let members = try await run(["group", "members", "--home", bob.path, "1"])
        #expect(members.stdout.hasPrefix("Group 1 “Trip”: 2 members") && !members.stdout.contains("ann"), "\(members.stdout)")
        let carlsLine = members.stdout.split(separator: "\n").first { $0.hasPrefix("carl\t") }
        #expect(carlsLine?.contains("\tcreator") == true, "carl holds it now: \(members.stdout)")

        // Bob is not the creator: refused in words, nothing changes.
        let notBob = try await run(["group", "rename", "--home", bob.path, "1", "Bob's trip"])
        #expect(notBob.status == 1 && notBob.stderr.contains("only the group's creator"), "\(notBob.stderr)")
        // Carl renames it, invites Dan, removes Bob: everything the creator could do.
        let renamed = try await run(["group", "rename", "--home", carl.path, "1", "Carl's trip"])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(try await run(["group", "add", "--home", carl.path, "1", "dan@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", dan.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", carl.path]).status == 0, "carl's next command passes the title on")
        let seen = try await run(["conversations", "--home", bob.path])
        #expect(seen.stdout.contains("Carl's trip"), "the new creator's title is believed: \(seen.stdout) \(seen.stderr)")
        let removed = try await run(["group", "remove", "--home", carl.path, "1", "bob@example.org"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let after = try await run(["group", "members", "--home", dan.path, "1"])
        #expect(after.stdout.hasPrefix("Group 1 “Carl's trip”: 2 members") && !after.stdout.contains("bob"), "\(after.stdout)")

        // The last two out: Dan, then Carl; the group is gone, not left to nobody.
        #expect(try await run(["group", "leave", "--home", dan.path, "1"]).status == 0)
        #expect(try await run(["group", "leave", "--home", carl.path, "1"]).status == 0)
        let gone = try await run(["group", "members", "--home", carl.path, "1"])
        #expect(gone.status == 1 && !gone.stdout.contains("trip"), "\(gone.stdout)\(gone.stderr)")
        try await scene.finish()
    }

    /// Members pass a title on only with the creator's signature (docs/CLIENT.md §8.1): the heir signs it again at
    /// its next connect, or a newcomer would drop every copy still signed by the creator who left.
    @Test func theHeirSignsTheTitleAgainSoMembersCanPassItOn() async throws {
        let scene = try await CLIScene.start("group-hand-over-title", people: ["ann", "bob", "carl", "dan"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl"), dan = scene.home("dan")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "carl@example.org", "--invite", "bob@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", carl.path, "1"]).status == 0)
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", ann.path]).status == 0, "ann shares the title she signed")
        #expect(try await run(["group", "leave", "--home", ann.path, "1"]).status == 0)
        // Carl's first read takes Ann's title, sent before she left (her word still: she was the creator then)…
        let first = try await run(["read", "--home", carl.path])
        #expect(first.stdout.contains("ann named the group “Trip”"), "\(first.stdout)\(first.stderr)")
        // …and his next connect signs it again as the heir.
        #expect(try await run(["read", "--home", carl.path]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).status == 0, "bob takes carl's proof")
        // Carl runs nothing from here: Dan can learn the title only from Bob.
        #expect(try await run(["group", "add", "--home", bob.path, "1", "dan@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", dan.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", bob.path]).status == 0, "bob passes it on")
        let seen = try await run(["conversations", "--home", dan.path])
        #expect(seen.stdout.contains("Trip"), "\(seen.stdout) \(seen.stderr)")
        let history = try await run(["read", "--home", bob.path, "--conversation", "1"])
        #expect(history.stdout.contains("ann named the group") && !history.stdout.contains("carl named the group"),
                "signing again adds no line: \(history.stdout)")
        try await scene.finish()
    }
}
