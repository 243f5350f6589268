import Foundation
import ParleyServer
import Testing

/// Issue 20 §2: failed logins slow whoever fails, not the account's owner. The stranger connects from
/// 127.0.0.2, the owner from 127.0.0.1, to a real server with the default limits.
@Suite("Lockouts that protect the owner", .serialized)
struct LockoutTests {
    static let stranger = "127.0.0.2"

    /// A `login_finish` for `account` signed with the wrong key.
    static func forgedLogin(_ account: TestAccount, on socket: LineSocket) async throws -> [String: Any] {
        let start = try await socket.call("login_start", ["email": account.email, "device_id": 1])
        guard let nonce = start["nonce"] as? String else { return start }
        return try await socket.call("login_finish", [
            "email": account.email, "device_id": 1, "nonce": nonce,
            "signature": TestAccount(account.email).loginSignature(nonce: nonce),
        ])
    }

    @Test("a stranger's wrong logins lock the stranger out, while the owner logs in from elsewhere")
    func strangerLocksOnlyThemself() async throws {
        let server = try await TestServer.start()
        let owner = TestAccount("victim@example.org")
        try await server.createAccount(owner, on: try server.connect())
        let attacker = try server.connect(from: Self.stranger)
        for _ in 0..<12 {
            #expect(try await Self.forgedLogin(owner, on: attacker).errorCode == "authentication_failed")
            server.clock.advance(milliseconds: 300_000)  // every lockout runs out: the attacker keeps guessing
        }
        _ = try await Self.forgedLogin(owner, on: attacker)
        let locked = try await Self.forgedLogin(owner, on: attacker)
        let wait = try #require((locked["error"] as? [String: Any])?["details"] as? [String: Any])["retry_after"] as? Int
        #expect(wait != nil && wait! > 0, "\(locked)")
        #expect(try await server.login(owner, on: attacker).errorCode == "authentication_failed", "even the right key waits on that address")

        let home = try server.connect()
        #expect(try await server.login(owner, on: home)["account_id"] != nil, "the owner is not locked out")
        #expect(try await Self.forgedLogin(owner, on: attacker)["error"] != nil, "the owner's login did not unlock the attacker's address")
        try await server.stop()
    }

    @Test("an address guessing at many accounts is slowed after ten failures; the accounts' owners are not")
    func addressSprayingManyAccounts() async throws {
        let server = try await TestServer.start()
        let setup = try server.connect()
        let accounts = (0..<12).map { TestAccount("person\($0)@example.org") }
        for account in accounts { try await server.createAccount(account, on: setup) }
        let attacker = try server.connect(from: Self.stranger)
        for account in accounts.prefix(10) {
            let answer = try await Self.forgedLogin(account, on: attacker)
            #expect(answer.errorMessage?.contains("try again in 2 s") == true, "\(answer)")
            server.clock.advance(milliseconds: 2_000)
        }
        let eleventh = try await Self.forgedLogin(accounts[10], on: attacker)
        #expect(eleventh.errorCode == "authentication_failed")
        let twelfth = try await Self.forgedLogin(accounts[11], on: attacker)
        #expect(twelfth.errorMessage?.contains("too many failed logins") == true, "the address is locked for every account")

        let home = try server.connect()
        #expect(try await server.login(accounts[11], on: home)["account_id"] != nil)
        #expect(try await server.login(accounts[0], on: home)["account_id"] != nil)
        try await server.stop()
    }

    @Test("the policies: per (account, address) at once, per address after 10, per account after 100 and briefly; failures are forgotten")
    func policies() {
        var record: LockoutRecord?
        for _ in 0..<10 { record = LockoutPolicy.address.afterFailure(record, now: 0) }
        #expect(LockoutPolicy.secondsRemaining(record, now: 0) == nil)
        #expect(LockoutPolicy.secondsRemaining(LockoutPolicy.address.afterFailure(record, now: 0), now: 0) == 2)

        record = nil
        for _ in 0..<100 { record = LockoutPolicy.account.afterFailure(record, now: 0) }
        #expect(LockoutPolicy.secondsRemaining(record, now: 0) == nil)
        for _ in 0..<20 { record = LockoutPolicy.account.afterFailure(record, now: 0) }
        #expect(LockoutPolicy.secondsRemaining(record, now: 0) == 60, "the account-wide lock stays short")

        let once = LockoutPolicy.accountFromAddress.afterFailure(nil, now: 0)
        #expect(LockoutPolicy.secondsRemaining(once, now: 0) == 2)
        let later = LockoutPolicy.accountFromAddress.afterFailure(once, now: 2_000 + 3_600_001)
        #expect(later.failures == 1, "an hour without failures forgets them")
    }
}
