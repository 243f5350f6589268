import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley account delete`, as a user runs it against a default server.
@Suite("parley account delete", .serialized, .offThePool)
struct AccountDeleteCommandTests {
    @Test func deletingTheAccountErasesItOnTheServerAndHere() async throws {
        let scene = try await CLIScene.start("delete", people: ["ann", "bob"])
        let ann = scene.home("ann"), bob = scene.home("bob")
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "hello bob"]).status == 0)

        let unconfirmed = try await scene.run(["account", "delete", "--home", ann.path])
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        #expect(FileManager.default.fileExists(atPath: ann.appendingPathComponent("accounts/ann@example.org").path))

        let deleted = try await scene.run(["account", "delete", "--home", ann.path, "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted ann@example.org: the server holds nothing of it any more"), "\(deleted.stdout)")
        #expect(!FileManager.default.fileExists(atPath: ann.appendingPathComponent("accounts/ann@example.org").path))
        #expect(try await scene.run(["account", "status", "--home", ann.path]).status != 0)

        // For Bob she is someone who has no account.
        let toGone = try await scene.run(["send", "--home", bob.path, "--to", "ann@example.org", "anyone there?"])
        #expect(toGone.status != 0 && toGone.stderr.contains("has no Parley account"), "\(toGone.stderr)")
        let list = try await scene.run(["server", "admin", "accounts", "list", "--data", scene.server.dataDirectory.path])
        #expect(list.status == 0 && !list.stdout.contains("ann@example.org") && list.stdout.contains("bob@example.org"), "\(list.stdout)\(list.stderr)")

        // The address registers again, as a new account.
        try await CLIAccounts.register("ann", home: ann, server: scene.server)
        try await scene.finish()
    }
}
