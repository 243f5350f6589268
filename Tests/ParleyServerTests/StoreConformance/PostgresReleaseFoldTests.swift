import Foundation
@testable import ParleyServer
import PostgresNIO
import Testing

/// PostgreSQL keeps a sender's undelivered total on its clock row and notes what deliveries release in
/// `undelivered_releases`, folded in by the sender's next message — and by the retention sweep, for a sender who
/// stops sending (their rows would otherwise stay for ever).
@Suite("PostgreSQL: the sweep folds released bytes into their senders' totals")
struct PostgresReleaseFoldTests {
    static func releaseRows(_ store: PostgresStore, sender: Int64) async throws -> Int64 {
        try await store.read { db, log in
            try await db.scalar("SELECT COUNT(*)::BIGINT FROM undelivered_releases WHERE sender_id = \(sender)", log, as: Int64.self) ?? 0
        }
    }

    static func clockBytes(_ store: PostgresStore, account: Int64) async throws -> Int64 {
        try await store.read { db, log in
            try await db.scalar("SELECT undelivered_bytes FROM account_clocks WHERE account_id = \(account)", log, as: Int64.self) ?? -1
        }
    }

    @Test("a sender who stopped sending: the sweep folds their releases; the total reads the same and still limits the next message")
    func quietSender() async throws {
        try await StoreBackend.withPostgresStore { store in
            let p = try await MessageConformanceTests.pair(store)
            var ids: [Int64] = []
            for index in 0..<5 {
                let message = UndeliveredBytesConformanceTests.message(p.conversation, from: p.ann, [(p.bob, 1, 2_000 + index)], clientID: "q\(index)")
                ids.append(try await store.insertMessage(message, now: 100 + Int64(index)).id)
            }
            for id in ids.prefix(3) { _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [id], now: 200) }
            let waiting: Int64 = 2_003 + 2_004
            #expect(try await Self.releaseRows(store, sender: p.ann) == 3)
            #expect(try await store.undeliveredBytes(senderID: p.ann) == waiting)

            _ = try await store.sweepExpired(now: 1_000, policy: RetentionPolicy(batchSize: 1))
            #expect(try await Self.releaseRows(store, sender: p.ann) == 0, "folded")
            #expect(try await Self.clockBytes(store, account: p.ann) == waiting, "into the clock row")
            #expect(try await store.undeliveredBytes(senderID: p.ann) == waiting, "the total reads the same")

            // The next message fits exactly in what is left, and one byte more does not.
            let next = UndeliveredBytesConformanceTests.message(p.conversation, from: p.ann, [(p.bob, 1, 3_000)], clientID: "q-next")
            guard case .overQuota = try await store.insertMessage(next, now: 300, checkingMembers: false, maximumUndeliveredBytes: waiting + 2_999) else {
                Issue.record("a message past the limit was stored")
                return
            }
            guard case .stored = try await store.insertMessage(next, now: 301, checkingMembers: false, maximumUndeliveredBytes: waiting + 3_000) else {
                Issue.record("a message exactly at the limit was refused")
                return
            }
            #expect(try await store.undeliveredBytes(senderID: p.ann) == waiting + 3_000)
        }
    }

    @Test("sends, deliveries and sweeps at once leave every total at what its envelopes hold, with no deadlock")
    func concurrent() async throws {
        try await StoreBackend.withPostgresStore(maximumConnections: 8) { store in
            let p = try await MessageConformanceTests.pair(store)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let (from, to) = index.isMultiple(of: 2) ? (p.ann, p.bob) : (p.bob, p.ann)
                    group.addTask {
                        let message = UndeliveredBytesConformanceTests.message(p.conversation, from: from, [(to, 1, 2_100 + index)], clientID: "c\(index)")
                        _ = try await store.insertMessage(message, now: 100 + Int64(index))
                        let waiting = try await store.messages(accountID: from, deviceID: 1, afterTimestamp: 0, limit: 5)
                        _ = try await store.confirmDelivery(accountID: from, deviceID: 1, messageIDs: waiting.map(\.id), now: 200)
                    }
                }
                for _ in 0..<4 {
                    group.addTask { _ = try await store.sweepExpired(now: 1_000, policy: RetentionPolicy(batchSize: 1)) }
                }
                try await group.waitForAll()
            }
            _ = try await store.sweepExpired(now: 1_000, policy: RetentionPolicy(batchSize: 1))
            for account in [p.ann, p.bob] {
                let held = try await store.read { db, log in
                    try await db.scalar(
                        "SELECT COALESCE(SUM(octet_length(ciphertext)), 0)::BIGINT FROM envelopes WHERE sender_id = \(account)", log, as: Int64.self) ?? 0
                }
                #expect(try await store.undeliveredBytes(senderID: account) == held)
                #expect(try await Self.clockBytes(store, account: account) == held, "everything folded by the last sweep")
                #expect(try await Self.releaseRows(store, sender: account) == 0)
            }
        }
    }

    @Test("releases of a sender no longer there are deleted")
    func orphans() async throws {
        try await StoreBackend.withPostgresStore { store in
            _ = try await MessageConformanceTests.pair(store)
            try await store.transaction("test") { db, log in
                try await db.run("INSERT INTO undelivered_releases (sender_id, bytes) VALUES (999999, 10), (999999, 20)", log)
            }
            _ = try await store.sweepExpired(now: 1_000, policy: RetentionPolicy())
            #expect(try await Self.releaseRows(store, sender: 999_999) == 0)
        }
    }
}
