import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley group rename`, one process per account, and `parley account logout`, as a user runs them.
@Suite("parley group rename, account in use, account logout", .serialized, .offThePool)
struct AccountLifecycleCommandTests {
    @Test func renameThenBusyAccountThenLogout() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-life-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: bob, server: server)

        // Renaming: the creator may, a member may not, and the member sees the new title.
        let created = try await ParleyBinary.runDetached(["group", "create", "--home", ann.path, "Trip", "--invite", "bob@example.org"])
        let group = try #require(created.stdout.firstMatch(of: /Created group (\d+)/)?.1)
        #expect(try await ParleyBinary.runDetached(["group", "accept", "--home", bob.path, String(group)]).status == 0)
        let renamed = try await ParleyBinary.runDetached(["group", "rename", "--home", ann.path, String(group), "Lisbon"])
        #expect(renamed.stdout.contains("Renamed group \(group) to “Lisbon”."), "\(renamed.stderr)")
        let refused = try await ParleyBinary.runDetached(["group", "rename", "--home", bob.path, String(group), "Bob's party"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("only the group's creator renames it"), "\(refused.stderr)")
        _ = try await ParleyBinary.runDetached(["read", "--home", bob.path])
        #expect(try await ParleyBinary.runDetached(["conversations", "--home", bob.path]).stdout.contains("Lisbon"))

        // While `read --follow` has ann's account open, a second command is turned away and told by whom.
        let follower = try LiveProcess(["read", "--home", ann.path, "--follow"])
        let lockFile = ann.appendingPathComponent("accounts/ann@example.org/in-use.lock")
        let deadline = Date().addingTimeInterval(60)
        while !((try? String(contentsOf: lockFile, encoding: .utf8)) ?? "").contains("parley read"), Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        let busy = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "while busy"])
        #expect(busy.status != 0)
        #expect(busy.stderr.contains("open in another parley process") && busy.stderr.contains("parley read"), "\(busy.stderr)")
        // `account lock` from here: the follower needs the key, so it says so and ends.
        let lock = try await ParleyBinary.runDetached(["account", "lock", "--home", ann.path])
        #expect(lock.stdout.contains("Asked ") && lock.stdout.contains("parley read to lock ann@example.org."), "\(lock.stdout)\(lock.stderr)")
        #expect(await follower.exitStatus() == 0)
        #expect(follower.text.contains("Locked by 'parley account lock'"), "\(follower.text)")
        let nobody = try await ParleyBinary.runDetached(["account", "lock", "--home", ann.path])
        #expect(nobody.stdout.contains("No parley process has ann@example.org open"), "\(nobody.stdout)\(nobody.stderr)")

        // `account unlock` checks a PIN; without one it says how to set one.
        let noPIN = try await ParleyBinary.runDetached(["account", "unlock", "--home", ann.path])
        #expect(noPIN.status != 0 && noPIN.stderr.contains("has no PIN"), "\(noPIN.stderr)")
        #expect(try await ParleyBinary.runDetached(["account", "set-pin", "--home", ann.path], environment: ["PARLEY_NEW_PIN": "5821"]).status == 0)
        let wrongPIN = try await ParleyBinary.runDetached(["account", "unlock", "--home", ann.path], environment: ["PARLEY_PIN": "1234"])
        #expect(wrongPIN.status != 0 && wrongPIN.stderr.contains("9 attempts left"), "\(wrongPIN.stderr)")
        let rightPIN = try await ParleyBinary.runDetached(["account", "unlock", "--home", ann.path], environment: ["PARLEY_PIN": "5821"])
        #expect(rightPIN.stdout.contains("The PIN is right"), "\(rightPIN.stderr)")
        #expect(try await ParleyBinary.runDetached(["account", "set-pin", "--home", ann.path, "--remove"], environment: ["PARLEY_PIN": "5821"]).status == 0)
        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "after the follower quit"])
        #expect(sent.status == 0, "\(sent.stderr)")

        // Logging out: refused without a confirmation, then the device leaves and the home is empty.
        let unconfirmed = try await ParleyBinary.runDetached(["account", "logout", "--home", ann.path])
        #expect(unconfirmed.status != 0)
        #expect(unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        let out = try await ParleyBinary.runDetached(["account", "logout", "--home", ann.path, "--yes"])
        #expect(out.stdout.contains("Signed out: device 1 left ann@example.org"), "\(out.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ann.appendingPathComponent("accounts/ann@example.org").path))
        let status = try await ParleyBinary.runDetached(["account", "status", "--home", ann.path])
        #expect(status.status != 0)
        // Bob's client drops ann's old device: his message goes out, to nobody's device of hers.
        let toGone = try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "anyone there?"])
        #expect(toGone.status == 0, "\(toGone.stderr)")

        // Back in with an e-mailed code and the password: a new device of the same account.
        let login = ["account", "login", "--home", ann.path, "--email", "ann@example.org", "--server", "127.0.0.1:\(server.port)"]
        let asked = try await ParleyBinary.runDetached(login)
        #expect(asked.stdout.contains("a code is on its way"), "\(asked.stdout)\(asked.stderr)")
        let code = try #require(server.latestCode(for: "ann@example.org"))
        let wrong = try await ParleyBinary.runDetached(login + ["--code", code], environment: ["PARLEY_PASSWORD": "not the password"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("not the account password") && !wrong.stderr.contains("not the password\""), "\(wrong.stderr)")
        // The mistyped password did not burn the e-mailed code: the same one works with the right password.
        let back = try await ParleyBinary.runDetached(login + ["--code", code], environment: CLIAccounts.environment)
        #expect(back.stdout.contains("Signed in: ann@example.org on this device (device 2)"), "\(back.stdout)\(back.stderr)")
        #expect(try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "welcome back"]).status == 0)
        let read = try await ParleyBinary.runDetached(["read", "--home", ann.path])
        #expect(read.stdout.contains("welcome back") && !read.stdout.contains("anyone there?"), "\(read.stdout)\(read.stderr)")
        try await server.stop()
    }
}
