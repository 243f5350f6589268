import Foundation
@testable import ParleyServer
import Testing

/// `ServerAdministration`, the operator's commands on a server's database: which account a text names, the
/// refusals that change nothing, and the words the commands print.
@Suite("Server administration", .serialized)
struct ServerAdministrationTests {
    final class Warnings: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test("an account is named by number or e-mail; anything else is refused in the operator's words")
    func findingAccounts() async throws {
        let people = try await TwoPeople.start()
        defer { try? FileManager.default.removeItem(at: people.server.directory) }
        let admin = ServerAdministration(store: people.server.opened.store, dataDirectory: people.server.directory, warn: { _ in })
        #expect(try await admin.account("\(people.annID)").email == "ann@example.org")
        #expect(try await admin.account("  ANN@example.org ").id == Int64(people.annID))
        let huge = String(repeating: "x", count: 10_000)
        for text in ["", "0", "-1", "999999", "nobody@example.org", "\u{1B}[2J", huge] {
            await #expect(throws: AdministrationError.self) { try await admin.account(text) }
        }
        await #expect(throws: AdministrationError("there is no account \(huge.prefix(254)) on this server ('parley server admin accounts list')")) {
            try await admin.account(huge)
        }
        try await people.server.stop(keepingFiles: true)
    }

    @Test("disable, enable, device and invite refusals change nothing")
    func refusals() async throws {
        let people = try await TwoPeople.start()
        defer { try? FileManager.default.removeItem(at: people.server.directory) }
        let warnings = Warnings()
        let admin = ServerAdministration(store: people.server.opened.store, dataDirectory: people.server.directory, warn: { warnings.lines.append($0) })
        await #expect(throws: AdministrationError("ann@example.org is not disabled")) { try await admin.enable("ann@example.org") }
        let (record, reach) = try await admin.disable("ann@example.org", now: 1_000)
        #expect(record.email == "ann@example.org")
        #expect(reach != nil && reach != .notRunning)
        await #expect(throws: AdministrationError("ann@example.org is disabled already")) { try await admin.disable("ann@example.org", now: 2_000) }
        #expect(try await admin.enable("ann@example.org").email == "ann@example.org")
        await #expect(throws: AdministrationError("bob@example.org has no device 77 ('parley server admin devices list bob@example.org')")) {
            try await admin.removeDevice(77, of: "bob@example.org")
        }
        await #expect(throws: AdministrationError("there is no invite 5 that is not revoked already ('parley server admin invites list')")) {
            try await admin.revokeInvite(5, now: 1)
        }
        struct Declined: Error {}
        await #expect(throws: Declined.self) { try await admin.delete("bob@example.org") { _ in throw Declined() } }
        #expect(try await admin.account("bob@example.org").email == "bob@example.org")
        #expect(try await admin.devices("bob@example.org").count == 1)
        #expect(try await admin.stats().0.accounts == 2)
        #expect(warnings.lines.isEmpty)
        try await people.server.stop(keepingFiles: true)
    }

    @Test("a directory without a database is named")
    func noDatabase() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("parley-admin-\(UUID().uuidString)")
        await #expect(throws: AdministrationError("no Parley database in \(empty.path) (give the server's --data directory)")) {
            try await ServerAdministration.withStore(data: empty.path, database: nil, environment: [:], warn: { _ in }) { _ in }
        }
        await #expect(throws: AdministrationError.self) {
            try await ServerAdministration.withStore(data: empty.path, database: "not a url", environment: [:], warn: { _ in }) { _ in }
        }
    }

    @Test("the words of the admin commands")
    func words() {
        #expect(AdminText.bytes(1) == "1 byte")
        #expect(AdminText.bytes(1_023) == "1023 bytes")
        #expect(AdminText.bytes(1_536) == "1.5 KiB")
        #expect(AdminText.bytes(3 << 30) == "3.0 GiB")
        #expect(AdminText.bytes(Int64.max).hasSuffix(" TiB"))
        #expect(AdminText.date(nil) == "never")
        #expect(AdminText.closed(.notRunning) == "no server is running, so it has no connections")
        #expect(AdminText.closed(nil) == "its connections could not be closed")
        #expect(AdminText.closed(.reached(nodes: 3, open: nil, signedIn: 0)) == "its connections on all 3 server nodes were closed")
        #expect(AdminText.json(["b": 1, "a": "x/y", "none": nil]) == #"{"a":"x/y","b":1}"#)
    }
}
