import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley verify` as a user runs it: the built binary against a real server, PNG files on disk.
@Suite("parley verify", .serialized, .offThePool)
struct VerifyCommandTests {
    let environment = ["PARLEY_PASSWORD": "a long enough password"]

    func register(_ name: String, home: URL, server: EmbeddedServer) async throws {
        try await CLIAccounts.register(name, home: home, server: server)
    }

    /// The 12 groups of the safety number in `verify` output (three indented lines of four).
    func safetyNumber(in output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("    ") }.flatMap { $0.split(separator: " ") }
    }

    @Test func showCompareScanAndMark() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await register("ann", home: ann, server: server)
        try await register("bob", home: bob, server: server)
        #expect(try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: bob)
        #expect(try await ParleyBinary.runDetached(["read", "--home", bob.path]).stdout.contains("hi"))

        let annView = try await ParleyBinary.runDetached(["verify", "--home", ann.path, "bob@example.org"])
        #expect(annView.status == 0, "\(annView.stderr)")
        let lines = annView.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Safety number with bob@example.org:")
        let groups = safetyNumber(in: annView.stdout)
        #expect(groups.count == 12 && groups.allSatisfy { $0.count == 5 && $0.allSatisfy(\.isNumber) }, "\(annView.stdout)")
        #expect(lines.contains { $0.hasPrefix("Your fingerprint:  ") && $0.split(separator: " ").count == 8 })
        #expect(lines.contains { $0.hasPrefix("Their fingerprint: ") && $0.split(separator: " ").count == 8 })
        #expect(lines.contains("Status: trusted"))
        let bobView = try await ParleyBinary.runDetached(["verify", "--home", bob.path, "ann@example.org"])
        #expect(safetyNumber(in: bobView.stdout) == groups)

        // bob shows his code (terminal and PNG); ann scans the PNG.
        let png = root.appendingPathComponent("bob-code.png").path
        let shown = try await ParleyBinary.runDetached(["verify", "--home", bob.path, "ann@example.org", "--qr", "--png", png])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Your code, for ann@example.org to scan"))
        #expect(shown.stdout.contains("█") && shown.stdout.contains("▀") && shown.stdout.contains("Wrote your verification code to"))
        let again = try await ParleyBinary.runDetached(["verify", "--home", bob.path, "ann@example.org", "--png", png])
        #expect(again.status != 0)   // an existing file is not replaced without --force

        let scanned = try await ParleyBinary.runDetached(["verify", "scan", "--home", ann.path, png])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(scanned.stdout.hasPrefix("Verified bob@example.org: the scanned code matches their identity key."))
        #expect(try await ParleyBinary.runDetached(["verify", "--home", ann.path, "bob@example.org"]).stdout.contains("Status: verified ✓"))
        let contacts = try await ParleyBinary.runDetached(["contacts", "--home", ann.path, "--json"])
        #expect(contacts.stdout.contains(#""trust":"verified""#), "\(contacts.stdout)")
        #expect(try await ParleyBinary.runDetached(["conversations", "--home", ann.path]).stdout.contains("verified ✓"))

        let json = try await ParleyBinary.runDetached(["verify", "--home", bob.path, "ann@example.org", "--json"])
        #expect(json.stdout.contains(#""status":"trusted""#) && json.stdout.contains(#""qr_text":"parley-verify:"#))

        // bob marks ann by hand; accepting an unchanged key is refused.
        let declined = try await ParleyBinary.runDetached(["verify", "mark", "--home", bob.path, "ann@example.org"], stdin: "n\n")
        #expect(declined.status == 1 && declined.stderr.contains("not marked"))
        let marked = try await ParleyBinary.runDetached(["verify", "mark", "--home", bob.path, "ann@example.org"], stdin: "y\n")
        #expect(marked.status == 0 && marked.stdout.contains("Does ann@example.org see exactly this number? [y/N] Marked ann@example.org verified."),
                "\(marked.stdout)\(marked.stderr)")
        let accept = try await ParleyBinary.runDetached(["verify", "accept", "--home", bob.path, "ann@example.org"])
        #expect(accept.status == 1 && accept.stderr.contains("has not changed"))
        try await server.stop()
    }

    @Test func wrongOwnAndBrokenImagesAreRefusedAndChangeNothing() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-verify-bad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await register("ann", home: ann, server: server)
        try await register("bob", home: bob, server: server)
        #expect(try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)

        let own = root.appendingPathComponent("ann-code.png").path
        #expect(try await ParleyBinary.runDetached(["verify", "--home", ann.path, "bob@example.org", "--png", own]).status == 0)
        let ownScan = try await ParleyBinary.runDetached(["verify", "scan", "--home", ann.path, own])
        #expect(ownScan.status == 1 && ownScan.stderr.contains("your own verification code"), "\(ownScan.stderr)")

        let garbage = root.appendingPathComponent("garbage.png")
        try Data("not a png at all".utf8).write(to: garbage)
        let bad = try await ParleyBinary.runDetached(["verify", "scan", "--home", ann.path, garbage.path])
        #expect(bad.status == 1 && bad.stderr.contains("is not a readable PNG file"), "\(bad.stderr)")
        let truncated = root.appendingPathComponent("truncated.png")
        try Data(try Data(contentsOf: URL(fileURLWithPath: own)).prefix(300)).write(to: truncated)
        #expect(try await ParleyBinary.runDetached(["verify", "scan", "--home", ann.path, truncated.path]).stderr.contains("not a readable PNG"))
        let missing = try await ParleyBinary.runDetached(["verify", "scan", "--home", ann.path, root.appendingPathComponent("nope.png").path])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
        #expect(try await ParleyBinary.runDetached(["verify", "--home", ann.path, "bob@example.org"]).stdout.contains("Status: trusted"))
        try await server.stop()
    }

    @Test func aVerifiedContactsNewKeyHoldsTheirMessagesAndBlocksSendingUntilAccepted() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-verify-change-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        try await register("ann", home: ann, server: server)
        try await register("bob", home: bob, server: server)
        #expect(try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "hi"]).status == 0)
        #expect(try await ParleyBinary.runDetached(["read", "--home", bob.path]).status == 0)
        #expect(try await ParleyBinary.runDetached(["verify", "mark", "--home", ann.path, "bob@example.org", "--yes"]).status == 0)

        let rotated = try await ParleyBinary.runDetached(["account", "rotate-keys", "--home", bob.path, "--yes"], environment: environment)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "new keys, same bob"]).status == 0)

        let held = try await ParleyBinary.runDetached(["read", "--home", ann.path])
        #expect(held.stdout.contains("(held: their identity key changed — run 'parley verify bob@example.org'"), "\(held.stdout)")
        #expect(!held.stdout.contains("new keys, same bob"))
        let history = try await ParleyBinary.runDetached(["read", "--home", ann.path, "--conversation", "1"])
        #expect(history.stdout.contains("#local "), "\(history.stdout)")
        #expect(history.stdout.contains("⚠ The identity key of bob@example.org changed after you verified it."))
        let blocked = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "still there?"])
        #expect(blocked.status == 1)
        #expect(blocked.stderr.contains("the identity key of bob@example.org changed after you verified it, so nothing was sent"))
        let status = try await ParleyBinary.runDetached(["verify", "--home", ann.path, "bob@example.org"])
        #expect(status.stdout.contains("Status: unverified") && status.stdout.contains("sending to them is blocked"))

        let accepted = try await ParleyBinary.runDetached(["verify", "accept", "--home", ann.path, "bob@example.org"])
        #expect(accepted.stdout.contains("Accepted the new identity key of bob@example.org; status: trusted."), "\(accepted.stderr)")
        let after = try await ParleyBinary.runDetached(["read", "--home", ann.path, "--conversation", "1"])
        #expect(after.stdout.contains("bob: new keys, same bob"), "\(after.stdout)")
        // The warning that said "held until you accept" is followed by what changed (a probe read it after the
        // accept as if it were still true).
        let warning = try #require(after.stdout.range(of: "changed after you verified it"))
        let settled = try #require(after.stdout.range(of: "You accepted the new identity key of bob@example.org: messages to and from them are no longer held."))
        #expect(warning.upperBound < settled.lowerBound)
        #expect(try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "welcome back"]).status == 0)
        #expect(try await ParleyBinary.runDetached(["read", "--home", bob.path]).stdout.contains("welcome back"))
        try await server.stop()
    }
}
