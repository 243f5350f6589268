import Foundation
import ParleyServer
import ParleyTestSupport
import Testing

/// An operator makes invite codes with `parley server admin invites`; a person registers with one
/// (docs/OPERATIONS.md §7), through the binary, against a running server with --registration invite.
@Suite("parley server admin invites, account register --invite", .serialized, .offThePool)
struct InviteCommandTests {
    @Test func anOperatorInvitesAPersonWhoRegistersWithTheCode() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-invites-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("server")
        let server = try await EmbeddedServer.start(dataDirectory: data) { $0.registration = .invite }
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        func run(_ arguments: [String]) async throws -> ParleyBinary.Result {
            try await ParleyBinary.runDetached(arguments, environment: CLIAccounts.environment)
        }
        func register(_ home: URL, _ email: String, invite: String?) async throws -> ParleyBinary.Result {
            try await run(["account", "register", "--home", home.path, "--email", email, "--name", "someone", "--server", "127.0.0.1:\(server.port)"]
                + (invite.map { ["--invite", $0] } ?? []))
        }

        #expect(try await run(["server", "admin", "invites", "list", "--data", data.path]).stdout.contains("No invites yet"))
        let without = try await register(ann, "ann@example.org", invite: nil)
        #expect(without.status != 0 && without.stderr.contains("by invitation"), "\(without.stderr)")
        #expect(!without.stderr.contains("forbidden"))

        let created = try await run(["server", "admin", "invites", "create", "--data", data.path, "--note", "for ann", "--uses", "1"])
        #expect(created.status == 0, "\(created.stderr)")
        let code = try #require(created.stdout.firstMatch(of: /[0-9A-Z]{5}(-[0-9A-Z]{5}){3}/).map { String($0.0) })
        #expect(created.stdout.contains("parley account register --invite \(code)"))
        let listed = try await run(["server", "admin", "invites", "--data", data.path])
        #expect(listed.stdout.contains("usable\t0 used, 1 left") && listed.stdout.contains("for ann") && !listed.stdout.contains(code), "\(listed.stdout)")

        let registered = try await register(ann, "ann@example.org", invite: code)
        #expect(registered.status == 0, "\(registered.stderr)")
        let confirmed = try await run(["account", "confirm", "--home", ann.path, try #require(server.latestCode(for: "ann@example.org"))])
        #expect(confirmed.status == 0 && confirmed.stdout.contains("Confirmed: ann@example.org"), "\(confirmed.stderr)")
        #expect(try await run(["server", "admin", "invites", "--data", data.path]).stdout.contains("used up\t1 used, 0 left"))
        let usedUp = try await register(bob, "bob@example.org", invite: code)
        #expect(usedUp.status != 0 && usedUp.stderr.contains("ask the server's operator for a new one"), "\(usedUp.stderr)")

        // Revoked: refused; revoking again says so; a mistake in the command line changes nothing.
        let second = try await run(["server", "admin", "invites", "create", "--data", data.path, "--json"])
        let secondCode = try #require(second.stdout.firstMatch(of: /[0-9A-Z]{5}(-[0-9A-Z]{5}){3}/).map { String($0.0) })
        #expect(try await run(["server", "admin", "invites", "revoke", "--data", data.path, "2"]).stdout.contains("Revoked invite 2."))
        #expect(try await run(["server", "admin", "invites", "revoke", "--data", data.path, "2"]).status != 0)
        #expect(try await register(bob, "bob@example.org", invite: secondCode).status != 0)
        #expect(try await run(["server", "admin", "invites", "create", "--data", data.path, "--uses", "0"]).status != 0)
        #expect(try await run(["server", "admin", "invites", "create", "--data", data.path, "--note", "tab\there"]).status != 0)
        let nowhere = try await run(["server", "admin", "invites", "--data", root.appendingPathComponent("nowhere").path])
        #expect(nowhere.status != 0 && nowhere.stderr.contains("no Parley database"), "\(nowhere.stderr)")
        #expect(try await run(["server", "admin", "invites", "--data", data.path]).stdout.split(separator: "\n").count == 2)
        try await server.stop()
    }
}
