import Foundation
import ParleyTestSupport
import Testing

/// Naming yourself where someone else is meant is said in the command's words (an outside probe got the server's
/// "the address is you; you are a member already" for `send --to` and no pointer to `group leave` for `group remove`).
@Suite("your own address where another is meant", .serialized, .offThePool)
struct OwnAddressCommandTests {
    @Test func sendingToYourselfAndRemovingYourself() async throws {
        let scene = try await CLIScene.start("own-address", people: ["ann", "bob"])
        let ann = scene.home("ann").path
        let sent = try await scene.run(["send", "--home", ann, "--to", "Ann@Example.org", "a note to self"])
        #expect(sent.status == 1 && sent.stderr.contains("Ann@Example.org is your own address: a conversation is with someone else"), "\(sent.stderr)")
        #expect(try await scene.run(["conversations", "--home", ann]).stdout.contains("No conversations"), "nothing was made")
        #expect(try await scene.run(["group", "create", "--home", ann, "Trip", "--invite", "bob@example.org"]).status == 0)
        let removed = try await scene.run(["group", "remove", "--home", ann, "1", "ann@example.org"])
        #expect(removed.status == 1 && removed.stderr.contains("ann@example.org is you: to leave the group, 'parley group leave 1'"), "\(removed.stderr)")
        try await scene.finish()
    }
}
