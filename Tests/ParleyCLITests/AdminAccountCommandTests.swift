import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley server admin accounts|devices|stats` through the binary, against a running server and a stopped one
/// (docs/OPERATIONS.md §8).
@Suite("parley server admin accounts, devices, stats", .serialized, .offThePool)
struct AdminAccountCommandTests {
    @Test func anOperatorDisablesEnablesAndDeletesAccounts() async throws {
        let scene = try await CLIScene.start("admin", people: ["ann", "bob", "carol"])
        let data = scene.server.dataDirectory.path
        let ann = scene.home("ann")
        func admin(_ arguments: [String]) async throws -> ParleyBinary.Result {
            try await scene.run(["server", "admin"] + arguments + ["--data", data])
        }
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "hello bob"]).status == 0)

        let list = try await admin(["accounts", "list"])
        #expect(list.status == 0 && list.stdout.split(separator: "\n").count == 3, "\(list.stdout)\(list.stderr)")
        #expect(list.stdout.contains("1\tactive\tann@example.org\tann\t1 device\tlast seen"), "\(list.stdout)")
        let show = try await admin(["accounts", "show", "bob@example.org"])
        #expect(show.stdout.contains("Account 2: bob@example.org") && show.stdout.contains("waiting:       1 ciphertexts"), "\(show.stdout)")
        #expect(!show.stdout.contains("hello bob"))
        let devices = try await admin(["devices", "list", "ann@example.org"])
        #expect(devices.stdout.hasPrefix("1\t"), "\(devices.stdout)")

        // Ann follows her messages; disabling her closes that connection at once and her logins fail.
        let follower = try LiveProcess(["read", "--home", ann.path, "--follow"])
        defer { follower.kill() }
        func signedIn() async throws -> String { try await admin(["stats"]).stdout }
        let deadline = Date().addingTimeInterval(60)
        while try await !signedIn().contains("1 signed in"), Date() < deadline { try await Task.sleep(for: .milliseconds(200)) }
        let stats = try await signedIn()
        #expect(stats.contains("accounts:      3 (0 disabled") && stats.contains("1 signed in") && stats.contains("ciphertexts:   1 waiting"), "\(stats)")

        let disabled = try await admin(["accounts", "disable", "ann@example.org"])
        #expect(disabled.stdout.contains("Disabled ann@example.org (account 1): its logins are refused, and its connections to the running server were closed."), "\(disabled.stdout)\(disabled.stderr)")
        let closedBy = Date().addingTimeInterval(5)
        while try await !signedIn().contains(" 0 signed in"), Date() < closedBy { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try await signedIn().contains(" 0 signed in"))
        // The follower is told why and ends, rather than reconnecting against a refusal.
        _ = try await follower.waitFor("this account is disabled; ask the server's operator", seconds: 10)
        #expect(await follower.exitStatus() != 0)
        let refused = try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "still here?"])
        #expect(refused.status != 0 && refused.stderr.contains("this account is disabled; ask the server's operator"), "\(refused.stderr)")
        #expect(try await admin(["accounts", "list"]).stdout.contains("1\tdisabled\tann@example.org"))

        // Mistakes: a clear error, nothing changes.
        for (arguments, words) in [
            (["accounts", "disable", "ann@example.org"], "disabled already"),
            (["accounts", "enable", "bob@example.org"], "is not disabled"),
            (["accounts", "show", "999"], "there is no account 999"),
            (["accounts", "disable", "nobody@example.org"], "there is no account nobody@example.org"),
            (["accounts", "delete", "bob@example.org"], "--yes"),
            (["devices", "remove", "bob@example.org", "7"], "has no device 7"),
            (["devices", "remove", "bob@example.org", "x"], "device"),
            (["accounts", "show", "'; DROP TABLE accounts; --"], "there is no account"),
        ] {
            let result = try await admin(arguments)
            #expect(result.status != 0 && result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        #expect(try await admin(["accounts", "list"]).stdout.split(separator: "\n").count == 3)

        let enabled = try await admin(["accounts", "enable", "1"])
        #expect(enabled.stdout.contains("Enabled ann@example.org (account 1): it can log in again."), "\(enabled.stdout)\(enabled.stderr)")
        #expect(try await scene.run(["send", "--home", ann.path, "--to", "bob@example.org", "back again"]).status == 0)

        // Deleting: Bob's account goes, with everything; twice is an error; disabling the deleted one too.
        let deleted = try await admin(["accounts", "delete", "bob@example.org", "--yes"])
        #expect(deleted.stdout.contains("Deleted bob@example.org (account 2) and everything the server held for it; 1 contact was told"), "\(deleted.stdout)\(deleted.stderr)")
        #expect(try await admin(["accounts", "delete", "2", "--yes"]).stderr.contains("there is no account 2"))
        #expect(try await admin(["accounts", "disable", "bob@example.org"]).stderr.contains("there is no account"))
        let after = try await admin(["stats", "--json"])
        #expect(after.stdout.contains(#""accounts":2"#) && after.stdout.contains(#""ciphertexts":0"#) && after.stdout.contains(#""running":true"#), "\(after.stdout)")

        // A device removed by the operator; with the server stopped the commands still work on the database.
        let removed = try await admin(["devices", "remove", "carol@example.org", "1"])
        #expect(removed.stdout.contains("Removed device 1 of carol@example.org"), "\(removed.stdout)\(removed.stderr)")
        try await scene.server.stop()
        let offline = try await admin(["accounts", "disable", "carol@example.org"])
        #expect(offline.stdout.contains("no server is running, so it has no connections"), "\(offline.stdout)\(offline.stderr)")
        #expect(try await admin(["stats"]).stdout.contains("none (no server is running)"))
        try? FileManager.default.removeItem(at: scene.root)
    }
}
