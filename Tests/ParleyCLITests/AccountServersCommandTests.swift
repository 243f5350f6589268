import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// `parley account servers`: show the addresses, change them to several nodes, refuse bad ones.
@Suite("parley account servers", .serialized, .offThePool)
struct AccountServersCommandTests {
    @Test func showChangeAndRefuse() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-servers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: ann, server: server)
        try await CLIAccounts.register("bob", home: root.appendingPathComponent("bob"), server: server)

        let shown = try await ParleyBinary.runDetached(["account", "servers", "--home", ann.path])
        #expect(shown.stdout.contains("ann@example.org connects to 127.0.0.1:\(server.port)"), "\(shown.stdout)\(shown.stderr)")

        // A dead first node and the live one: sending still works, through the second.
        let dead = server.port == 1 ? 2 : 1
        let changed = try await ParleyBinary.runDetached(["account", "servers", "--home", ann.path, "127.0.0.1:\(dead),127.0.0.1:\(server.port)"])
        #expect(changed.stdout.contains("Saved. ann@example.org connects to 127.0.0.1:\(dead), 127.0.0.1:\(server.port)"), "\(changed.stderr)")
        let json = try await ParleyBinary.runDetached(["account", "servers", "--home", ann.path, "--json"])
        #expect(json.stdout.contains(#""servers":["127.0.0.1:\#(dead)","127.0.0.1:\#(server.port)"]"#), "\(json.stdout)")
        let sent = try await ParleyBinary.runDetached(["send", "--home", ann.path, "--to", "bob@example.org", "through the second node"])
        #expect(sent.status == 0, "\(sent.stderr)")

        for bad in ["127.0.0.1", "127.0.0.1:0", "127.0.0.1:7433,", ":7433", "a b:7433", String(repeating: "h:1,", count: 16) + "h:1"] {
            let refused = try await ParleyBinary.runDetached(["account", "servers", "--home", ann.path, bad])
            #expect(refused.status != 0, "\(bad)")
            #expect(refused.stderr.contains("HOST:PORT") || refused.stderr.contains("at most 16"), "\(bad): \(refused.stderr)")
        }
        let unchanged = try await ParleyBinary.runDetached(["account", "servers", "--home", ann.path])
        #expect(unchanged.stdout.contains("127.0.0.1:\(dead), 127.0.0.1:\(server.port)"), "a refused change changes nothing")
        try await server.stop()
    }
}
