import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// Issue 19 §2 as a person meets it: `parley account rotate-keys` on an account with two devices, a contact
/// who was away, and a stranger who writes afterwards — all through the binary, on a server with its defaults.
@Suite("parley account rotate-keys with a second device and an offline contact", .serialized, .offThePool)
struct RotationCommandTests {
    @Test func theAccountStaysReachableAndNothingSentAroundTheRotationIsLost() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-rotate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let bob = root.appendingPathComponent("bob"), phone = root.appendingPathComponent("bob-phone")
        let ann = root.appendingPathComponent("ann"), carl = root.appendingPathComponent("carl")
        for (name, home) in [("bob", bob), ("ann", ann), ("carl", carl)] { try await CLIAccounts.register(name, home: home, server: server) }
        func run(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let result = try await ParleyBinary.runDetached(arguments, environment: environment)
            return (result.status, result.stdout, result.stderr)
        }
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "hello bob"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await run(["read", "--home", bob.path]).stdout.contains("hello bob"))
        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "hello ann"]).status == 0)
        #expect(try await run(["read", "--home", ann.path]).stdout.contains("hello ann"))

        // Bob pairs a phone.
        let pairing = try LiveProcess([
            "account", "pair", "--home", phone.path, "--email", "bob@example.org", "--server", "127.0.0.1:\(server.port)", "--name", "phone",
        ])
        let code = try await pairing.waitFor("[0-9A-Z]{4}(-[0-9A-Z]{4}){4}")
        #expect(try await run(["account", "authorize", "--home", bob.path, code]).status == 0)
        #expect(await pairing.exitStatus() == 0, "\(pairing.text)")

        // Ann writes while bob has not read it yet; then bob rotates his keys.
        #expect(try await run(["send", "--home", ann.path, "--to", "bob@example.org", "written before the rotation"]).status == 0)
        let rotated = try await run(["account", "rotate-keys", "--home", bob.path, "--yes"], CLIAccounts.environment)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let devices = try await run(["devices", "--home", bob.path])
        #expect(!devices.stdout.contains("phone"), "the phone left the device list at once: \(devices.stdout)")

        // A stranger's first message goes through (no envelope is owed to the phone any more).
        let fromCarl = try await run(["send", "--home", carl.path, "--to", "bob@example.org", "hi, I'm carl"])
        #expect(fromCarl.status == 0, "\(fromCarl.stderr)")
        // Ann, away when bob rotated, writes again: her login first learns bob's new key (get_identity_keys), so she is
        // told before bob ever writes, and what she sends goes to the new key.
        let annSends = try await run(["send", "--home", ann.path, "--to", "bob@example.org", "written after, old keys"])
        #expect(annSends.status == 0, "\(annSends.stderr)")
        #expect(annSends.stderr.contains("The identity key of bob@example.org changed"), "said as she sends: \(annSends.stderr)")
        let annSees = try await run(["read", "--home", ann.path, "--conversation", "1"])
        #expect(annSees.stdout.contains("The identity key of bob@example.org changed"), "\(annSees.stdout) \(annSees.stderr)")
        #expect(try await run(["verify", "--home", ann.path, "bob@example.org"]).stdout.contains("Status: unverified"))

        let read = try await run(["read", "--home", bob.path])
        // Carl is a stranger: his message waits as a request, and reads whole there.
        #expect(read.stdout.contains("1 new in message request"), "\(read.stdout) \(read.stderr)")
        #expect(try await run(["requests", "--home", bob.path]).stdout.contains("hi, I'm carl"))
        let history = try await run(["read", "--home", bob.path, "--conversation", "1"])
        for text in ["hello bob", "written before the rotation", "written after, old keys"] {
            #expect(history.stdout.contains(text), "\(text) missing from: \(history.stdout) \(history.stderr)")
        }
        #expect(!history.stdout.contains("could not decrypt"), "\(history.stdout)")

        // Bob answers under his new key: ann reads it, and is not told a second time.
        #expect(try await run(["send", "--home", bob.path, "--to", "ann@example.org", "new keys here"]).status == 0)
        let annReads = try await run(["read", "--home", ann.path])
        #expect(annReads.stdout.contains("new keys here"), "\(annReads.stdout) \(annReads.stderr)")
        let status = try await run(["verify", "--home", ann.path, "bob@example.org"])
        #expect(status.stdout.contains("Status: unverified"), "\(status.stdout)")
        let warnings = try await run(["read", "--home", ann.path, "--conversation", "1"]).stdout
        #expect(warnings.components(separatedBy: "The identity key of bob@example.org changed").count == 2, "one warning: \(warnings)")

        // The phone is told what happened and how to go on; asked to, it erases what it still holds.
        let phoneRead = try await run(["read", "--home", phone.path])
        #expect(phoneRead.status != 0 && phoneRead.stderr.contains("no longer part of the account"), "\(phoneRead.stderr)")
        #expect(phoneRead.stderr.contains("parley account pair"))
        let mainKey = phone.appendingPathComponent("accounts/bob@example.org/mainkey").path
        #expect(FileManager.default.fileExists(atPath: mainKey), "kept until asked: the server's word alone erases nothing")
        let erased = try await run(["account", "logout", "--home", phone.path, "--yes"])
        #expect(erased.status == 0 && erased.stdout.contains("its local data was erased"), "\(erased.stdout) \(erased.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mainKey))
        try await server.stop()
    }
}
