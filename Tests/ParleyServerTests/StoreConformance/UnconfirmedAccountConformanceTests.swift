import Foundation
@testable import ParleyServer
import Testing

/// Registrations never confirmed, identical on every backend: a day after they were made they go with their keys,
/// codes and held invites (docs/OPERATIONS.md §5.1). Without this anyone could leave keys on a server for ever by
/// registering addresses they never confirm.
@Suite("Store conformance: registrations never confirmed")
struct UnconfirmedAccountConformanceTests {
    static let day = RetentionPolicy.day
    static let start: Int64 = 100 * day

    @Test("a day after it was made a registration never confirmed goes with its keys, code and held invite; nothing else does",
          arguments: StoreBackend.allCases)
    func sweptAfterADay(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let t0 = Self.start
            let invite = try await store.createInvite(codeHash: Sample.bytes(32, 60), note: "", uses: 5, expiresAt: t0 + 60 * Self.day, now: t0)
            func register(_ email: String, at now: Int64, keys: Int = 100) async throws -> Int64 {
                let id = try await store.createPendingAccount(
                    Sample.account(email, oneTimeIDs: (1...UInt32(keys)).map { $0 }),
                    verification: Sample.verification(expiresAt: now + 15 * 60_000), now: now)
                try await store.holdInvite(invite.id, for: email)
                return id
            }
            let abandoned = try await register("gone@example.org", at: t0)
            let abandonedToo = try await register("gone2@example.org", at: t0 + 1, keys: 3)
            let now = t0 + Self.day + 10
            let fresh = try await register("fresh@example.org", at: now - Self.day + 60_000)  // a minute short of a day before the sweep
            // Named by a conversation (the server never lets one do this): left alone rather than failing the sweep.
            let named = try await register("odd@example.org", at: t0, keys: 1)
            _ = try await store.createConversation(kind: .group, creatorID: named, memberIDs: [], now: t0)
            let confirmed = try await register("ann@example.org", at: t0)
            #expect(try await store.activateAccount(email: "ann@example.org", spendingHeldInviteAt: t0 + 1_000))
            // A recovery code an active account asked for and never used; and one asked for just now.
            let bob = try await Sample.activeAccount(store, "bob@example.org", now: t0)
            try await store.saveRecoveryCode(email: "bob@example.org", Sample.verification(expiresAt: t0 + 15 * 60_000))
            let cat = try await Sample.activeAccount(store, "cat@example.org", now: t0)

            try await store.saveRecoveryCode(email: "cat@example.org", Sample.verification(expiresAt: now + 15 * 60_000))
            let report = try await store.sweepExpired(now: now, policy: RetentionPolicy(batchSize: 7))
            #expect(report.unconfirmedPreKeys == 104, "100, 3 and the named one's 1 one-time prekeys")
            #expect(report.unconfirmedAccounts == 2)
            #expect(report.heldInvites == 2)
            #expect(report.registrations == 7, "each register's record for surge detection, all over an hour old")
            #expect(try await store.account(id: named) != nil)
            #expect(report.verifications == 5, "the codes of the four registrations (all expired an hour ago) and bob's unused recovery code")

            for id in [abandoned, abandonedToo] {
                #expect(try await store.account(id: id) == nil)
                #expect(try await store.devices(accountID: id).isEmpty)
                #expect(try await store.oneTimePreKeyCount(accountID: id, deviceID: 1) == 0)
            }
            #expect(try await store.verification(email: "gone@example.org") == nil)
            if let postgres = store as? PostgresStore {
                let clocks = try await postgres.read { db, log in
                    try await db.scalar(
                        "SELECT COUNT(*)::BIGINT FROM account_clocks WHERE account_id = \(abandoned) OR account_id = \(abandonedToo)", log, as: Int64.self)
                }
                #expect(clocks == 0, "their message clocks went too")
            }
            #expect(try await store.account(id: fresh)?.isActive == false, "a registration younger than a day waits")
            #expect(try await store.verification(email: "fresh@example.org") == nil, "its code expired an hour ago, though")
            #expect(try await store.account(id: confirmed)?.isActive == true)
            #expect(try await store.oneTimePreKeyCount(accountID: confirmed, deviceID: 1) == 100, "a confirmed account keeps its keys")
            #expect(try await store.account(id: bob)?.isActive == true)
            #expect(try await store.verification(email: "bob@example.org") == nil)
            #expect(try await store.verification(email: "cat@example.org") != nil, "a recovery code in its lifetime stays")
            _ = cat

            // The fresh registration's held invite still counts: confirming it spends a use.
            #expect(try await store.activateAccount(email: "fresh@example.org", spendingHeldInviteAt: now + 1))
            #expect(try await store.invites().first { $0.id == invite.id }?.used == 2)
            // The address of a swept registration can register again, and gets a new account number.
            let again = try await register("gone@example.org", at: now + 2)
            #expect(again > fresh)
            // Registering again while pending replaces the registration whole (on PostgreSQL its clock too).
            let replaced = try await register("gone@example.org", at: now + 3)
            #expect(try await store.account(id: again) == nil && replaced > again)
            if let postgres = store as? PostgresStore {
                let clocks = try await postgres.read { db, log in
                    try await db.scalar("SELECT COUNT(*)::BIGINT FROM account_clocks WHERE account_id = \(again)", log, as: Int64.self)
                }
                #expect(clocks == 0)
            }
            #expect(try await store.sweepExpired(now: now + 4, policy: RetentionPolicy()) == SweepReport(), "a second sweep finds nothing")
        }
    }
}
