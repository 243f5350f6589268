import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// A newcomer to a group sees its title although its creator runs nothing: a member passes it on, signed by the
/// creator (docs/CLIENT.md §8.1). Through the binary on a default server, every command a process of its own, so no
/// live notification helps.
@Suite("parley group: a newcomer learns the title from a member", .serialized, .offThePool)
struct GroupTitleCommandTests {
    @Test func aNewcomerSeesTheTitleWhileTheCreatorRunsNothing() async throws {
        let scene = try await CLIScene.start("group-title", people: ["ann", "bob", "carl"])
        let ann = scene.home("ann"), bob = scene.home("bob"), carl = scene.home("carl")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result { try await scene.run(arguments) }

        #expect(try await run(["group", "create", "--home", ann.path, "Climbing trip", "--invite", "bob@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", bob.path, "1"]).status == 0)
        // The creator's last command (a read, whose connect does not catch up itself): it shares the title.
        #expect(try await run(["read", "--home", ann.path]).status == 0)
        #expect(try await run(["conversations", "--home", bob.path]).stdout.contains("Climbing trip"))

        #expect(try await run(["group", "add", "--home", bob.path, "1", "carl@example.org"]).status == 0)
        #expect(try await run(["group", "accept", "--home", carl.path, "1"]).status == 0)
        let before = try await run(["conversations", "--home", carl.path])
        #expect(before.stdout.contains("a group without a title yet"), "nobody who has it has run since: \(before.stdout)")
        #expect(try await run(["read", "--home", bob.path]).status == 0, "bob's next command passes it on")
        let after = try await run(["conversations", "--home", carl.path])
        #expect(after.stdout.contains("Climbing trip"), "\(after.stdout) \(after.stderr)")
        // Passed on, not said: carl's conversation has no line of bob naming the group.
        let history = try await run(["read", "--home", carl.path, "--conversation", "1"])
        #expect(!history.stdout.contains("named the group"), "\(history.stdout)")
        #expect(history.stdout.contains("No messages in conversation 1 yet."), "an empty history says so: \(history.stdout)")
        try await scene.finish()
    }
}
