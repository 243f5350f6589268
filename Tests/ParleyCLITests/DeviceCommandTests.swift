import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley account pair`, `account authorize` and `devices` as a user runs them.
@Suite("parley account pair/authorize and devices", .serialized, .offThePool)
struct DeviceCommandTests {
    @Test func aSecondDeviceJoinsWithACodeAndIsRemovedAgain() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-pair-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let chat = ChatCommandTests()
        let laptop = root.appendingPathComponent("ann"), phone = root.appendingPathComponent("ann-phone")
        let bob = root.appendingPathComponent("bob")
        try await chat.register("ann", home: laptop, server: server)
        try await chat.register("bob", home: bob, server: server)
        #expect(try await ParleyBinary.runDetached(["send", "--home", bob.path, "--to", "ann@example.org", "For ann's eyes"]).status == 0)
        try await CLIAccounts.accept(request: 1, home: laptop)
        #expect(try await ParleyBinary.runDetached(["read", "--home", laptop.path]).stdout.contains("For ann's eyes"))

        let pairing = try LiveProcess([
            "account", "pair", "--home", phone.path, "--email", "ann@example.org", "--server", "127.0.0.1:\(server.port)",
            "--name", "phone", "--png", root.appendingPathComponent("pair.png").path,
        ])
        let code = try await pairing.waitFor("[0-9A-Z]{4}(-[0-9A-Z]{4}){4}")
        // A mistyped code is caught before anything is sent.
        let typo = try await ParleyBinary.runDetached(["account", "authorize", "--home", laptop.path, "U" + code.dropFirst()])
        #expect(typo.status != 0)
        #expect(typo.stderr.contains("not a pairing code"))
        #expect(pairing.text.contains("█") || pairing.text.contains("▀"), "the QR code is drawn in the terminal")
        // The laptop scans the phone's QR code (here: the PNG it wrote) instead of typing the code.
        let authorized = try await ParleyBinary.runDetached(
            ["account", "authorize", "--home", laptop.path, "--scan", root.appendingPathComponent("pair.png").path])
        #expect(authorized.status == 0, "\(authorized.stderr)")
        #expect(authorized.stdout.contains("Authorized “phone” as device 2."))
        #expect(await pairing.exitStatus() == 0, "\(pairing.text)")
        #expect(pairing.text.contains("Paired: ann@example.org on this device (device 2), 1 conversation(s)"))

        // The history bob sent before the phone existed is readable there.
        let history = try await ParleyBinary.runDetached(["read", "--home", phone.path, "--conversation", "1"])
        #expect(history.stdout.contains(": For ann's eyes"), "\(history.stdout) \(history.stderr)")
        let devices = try await ParleyBinary.runDetached(["devices", "--home", laptop.path])
        #expect(devices.stdout.contains("1  "), "\(devices.stdout)")
        #expect(devices.stdout.contains("2  phone  added "))
        #expect(devices.stdout.contains("(this device)"))

        #expect(try await ParleyBinary.runDetached(["devices", "remove", "--home", laptop.path, "2"]).stdout.contains("Removed device 2."))
        let removed = try await ParleyBinary.runDetached(["read", "--home", phone.path])
        #expect(removed.status != 0)
        // The removed phone's failed login does not lock the laptop out.
        let json = try await ParleyBinary.runDetached(["devices", "--home", laptop.path, "--json"])
        #expect(json.stdout.contains("\"id\":1") && !json.stdout.contains("\"id\":2"), "\(json.stdout) \(json.stderr)")
        try await server.stop()
    }
}
