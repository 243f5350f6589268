import Foundation
import ParleyCrypto
@testable import ParleyServer
import Testing

/// `--registration invite` and `closed` (docs/OPERATIONS.md §7), over real sockets.
@Suite("Registration by invitation", .serialized)
struct InviteRegistrationTests {
    /// An invite server and one code of `uses`, valid `days`.
    func start(uses: Int = 1, days: Int64 = 7, backend: StoreBackend = .sqlite) async throws -> (TestServer, String, Int64) {
        let server = try await TestServer.start(backend: backend) { $0.registration = .invite }
        let code = InviteCode.make(SystemRandomSource())
        let now = server.clock.now()
        let invite = try await server.opened.store.createInvite(
            codeHash: InviteCode.hash(ofNormalised: try #require(InviteCode.normalised(code))), note: "test", uses: uses,
            expiresAt: now + days * 86_400_000, now: now)
        return (server, code, invite.id)
    }

    func register(_ account: TestAccount, invite: Any?, on socket: LineSocket) async throws -> [String: Any] {
        var fields = account.registerFields
        fields["invite"] = invite
        return try await socket.call("register", fields)
    }

    func confirm(_ account: TestAccount, _ server: TestServer, on socket: LineSocket) async throws -> [String: Any] {
        let code = try #require(try server.latestCode(for: account.email))
        return try await socket.call("register_confirm", ["email": account.email, "code": code])
    }

    @Test("an invite creates as many accounts as it has uses, spent at confirmation; a lost code costs none", arguments: StoreBackend.allCases)
    func usesAreSpentAtConfirmation(_ backend: StoreBackend) async throws {
        let (server, code, id) = try await start(uses: 1, backend: backend)
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org"), bob = TestAccount("bob@example.org")
        // Typed loosely: lower case, no dashes, O for 0.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "0", with: "o")
        #expect(try await register(ann, invite: typed, on: socket)["status"] as? String == "verification_sent")
        #expect(try await register(ann, invite: code, on: socket).ok, "asking for the code again is free")
        // Bob may start with the same code (one use left), but Ann's confirmation spends it first.
        #expect(try await register(bob, invite: code, on: socket).ok)
        #expect(try await confirm(ann, server, on: socket)["account_id"] is Int)
        let bobConfirm = try await confirm(bob, server, on: socket)
        #expect(bobConfirm.errorCode == "forbidden" && (bobConfirm.errorMessage ?? "").contains("used up"), "\(bobConfirm)")
        #expect(try await server.opened.store.account(email: bob.email)?.isActive == false)
        #expect(try await register(bob, invite: code, on: socket).errorCode == "forbidden")
        let invite = try #require(try await server.opened.store.invites().first { $0.id == id })
        #expect(invite.used == 1 && invite.usesLeft == 0)
        // Ann logs in as anyone does.
        #expect(try await server.login(ann, on: socket)["account_id"] is Int)
        try await server.stop()
    }

    @Test("no code, a wrong, expired or revoked code, or a closed server: refused, nothing stored, the same words")
    func refusals() async throws {
        let (server, code, id) = try await start(uses: 5, days: 1)
        let socket = try server.connect()
        let carol = TestAccount("carol@example.org")
        let missing = try await register(carol, invite: nil, on: socket)
        #expect(missing.errorCode == "forbidden" && (missing.errorMessage ?? "").contains("invitation"), "\(missing)")
        var answers: [String] = []
        for bad in ["", "x", String(repeating: "A", count: 20) + "B", "K7QP2-XM4RD-9TBNV-W3HJ!", String(repeating: "7", count: 20)] {
            let answer = try await register(carol, invite: bad, on: socket)
            #expect(answer.errorCode == "forbidden", "\(bad): \(answer)")
            answers.append(answer.errorMessage ?? "")
        }
        #expect(try await register(carol, invite: 12345, on: socket).errorCode == "invalid_field")
        #expect(try await register(carol, invite: String(repeating: "A", count: 65), on: socket).errorCode == "invalid_field")
        #expect(try server.latestCode(for: carol.email) == nil, "no verification code was sent")

        // Started, then revoked before confirmation: not confirmed.
        #expect(try await register(carol, invite: code, on: socket).ok)
        #expect(try await server.opened.store.revokeInvite(id: id, now: server.clock.now()))
        #expect(try await confirm(carol, server, on: socket).errorCode == "forbidden")
        let revoked = try await register(carol, invite: code, on: socket)
        answers.append(revoked.errorMessage ?? "")
        #expect(Set(answers).count == 1, "every unusable code is answered alike: \(Set(answers))")
        try await server.stop()

        // Expired.
        let (later, fresh, _) = try await start(uses: 1, days: 1)
        let other = try later.connect()
        later.clock.advance(milliseconds: 86_400_000)
        #expect(try await register(carol, invite: fresh, on: other).errorMessage == answers[0])
        try await later.stop()

        // Closed.
        let closed = try await TestServer.start { $0.registration = .closed }
        let closedSocket = try closed.connect()
        let shut = try await register(carol, invite: nil, on: closedSocket)
        #expect(shut.errorCode == "forbidden" && (shut.errorMessage ?? "").contains("not taking new accounts"))
        try await closed.stop()
    }

    @Test("an address that has an account gets the same answer with a code, and spends nothing")
    func existingAddress() async throws {
        let (server, code, id) = try await start(uses: 2)
        let socket = try server.connect()
        let ann = TestAccount("ann@example.org")
        #expect(try await register(ann, invite: code, on: socket).ok)
        #expect(try await confirm(ann, server, on: socket).ok)
        let again = try await register(TestAccount("ann@example.org"), invite: code, on: socket)
        let new = try await register(TestAccount("dan@example.org"), invite: code, on: socket)
        #expect(Set(again.keys).subtracting(["request_id"]) == Set(new.keys).subtracting(["request_id"]))
        #expect(again["status"] as? String == new["status"] as? String)
        #expect(try await server.opened.store.invites().first { $0.id == id }?.usesLeft == 1)
        try await server.stop()
    }

    @Test("invite codes: 100 bits in four groups of five, read back however they are typed")
    func codes() throws {
        let code = InviteCode.make(SystemRandomSource())
        #expect(code.count == 23 && code.split(separator: "-").map(\.count) == [5, 5, 5, 5])
        #expect(InviteCode.normalised(code) == code.replacingOccurrences(of: "-", with: ""))
        #expect(InviteCode.normalised(" k7qp2 xm4rd-9tbnv-w3hjc ") == "K7QP2XM4RD9TBNVW3HJC")
        #expect(InviteCode.normalised("OIL00-00000-00000-00000") == "01100000000000000000")
        #expect(InviteCode.normalised("K7QP2-XM4RD-9TBNV-W3HJ") == nil)
        #expect(InviteCode.normalised("K7QP2-XM4RD-9TBNV-W3HJCU") == nil, "U is not in the alphabet")
        let many = Set((0..<200).map { _ in InviteCode.make(SystemRandomSource()) })
        #expect(many.count == 200)
        // Every character of the alphabet turns up: no bias that leaves some out.
        #expect(Set(many.joined().filter { $0 != "-" }).count == 32)
    }
}
