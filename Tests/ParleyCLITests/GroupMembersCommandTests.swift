import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley group members`: who is in a group, as each member sees it, through the binary on a default server.
@Suite("parley group members: who is in a group", .serialized, .offThePool)
struct GroupMembersCommandTests {
    @Test func everyMemberSeesWhoIsInTheGroupAndAStrangerSeesNothing() async throws {
        let scene = try await CLIScene.start("group-members", people: ["ann", "bob", "carl", "dan"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl"), dan = scene.home("dan")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        // Bob named twice (once in capitals) is invited once.
        let created = try await run(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org", "--invite", "carl@example.org",
                                     "--invite", "BOB@example.org"])
        #expect(created.status == 0 && created.stdout.contains("; 2 invited."), "\(created.stdout)\(created.stderr)")
        let blank = try await run(["group", "create", "--home", ann.path, "   ", "--invite", "bob@example.org"])
        #expect(blank.status == 1 && blank.stderr.contains("a group title needs something to show"), "\(blank.stderr)")
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        // Carl has not answered: not a member yet, so not listed.
        let early = try await run(["group", "members", "--home", ann.path, "1"])
        #expect(early.status == 0, "\(early.stderr)")
        let lines = early.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Group 1 “Trip”: 2 members", "\(early.stdout)")
        #expect(lines.dropFirst().first?.hasSuffix("ann@example.org\tcreator\tyou") == true, "the creator first: \(early.stdout)")
        #expect(lines.contains { $0.hasPrefix("bob\tbob@example.org\t") }, "\(early.stdout)")
        #expect(!early.stdout.contains("carl"))

        #expect(try await run(["group", "accept", "--home", carl.path, "1"]).status == 0)
        #expect(try await run(["read", "--home", ann.path]).status == 0)
        let asCarl = try await run(["group", "members", "--home", carl.path, "1"])
        #expect(asCarl.stdout.hasPrefix("Group 1 “Trip”: 3 members"), "\(asCarl.stdout)")
        #expect(asCarl.stdout.contains("\tcreator\t") && asCarl.stdout.contains("carl@example.org\tyou"), "\(asCarl.stdout)")
        let json = try await run(["group", "members", "--home", carl.path, "1", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 3 && rows.filter { $0["creator"] as? Bool == true }.count == 1 && rows.filter { $0["you"] as? Bool == true }.count == 1)

        // Someone outside the group learns nothing of it; a direct conversation is not a group.
        let stranger = try await run(["group", "members", "--home", dan.path, "1"])
        #expect(stranger.status != 0 && !stranger.stdout.contains("Trip") && !stranger.stderr.contains("Trip"), "\(stranger.stdout) \(stranger.stderr)")
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)
        let direct = try await run(["group", "members", "--home", ann.path, "2"])
        #expect(direct.status != 0 && direct.stderr.contains("conversation 2 is not a group"), "\(direct.stderr)")
        // Who left is no longer listed.
        #expect(try await run(["group", "leave", "--home", bob.path, "1"]).status == 0)
        let after = try await run(["group", "members", "--home", carl.path, "1"])
        #expect(after.stdout.hasPrefix("Group 1 “Trip”: 2 members") && !after.stdout.contains("bob"), "\(after.stdout)")
        try await scene.finish()
    }
}
