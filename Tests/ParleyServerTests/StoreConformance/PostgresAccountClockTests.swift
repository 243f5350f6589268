import Foundation
@testable import ParleyServer
import Testing

/// Each account's message clock on PostgreSQL: made with the account, so a message runs no statement to make it,
/// and still made by the message for an account that has none (one created by an older version, before
/// migration v16 gave every account its clock).
@Suite("PostgreSQL account clocks")
struct PostgresAccountClockTests {
    @Test("a new account has its clock at once; accounts without one still get distinct, increasing timestamps")
    func accountsWithoutClocksStillOrderTheirMessages() async throws {
        try await StoreBackend.withPostgresStore { store in
            let ada = try await Sample.activeAccount(store, "ada@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            #expect(try await clocks(store) == [ada, bob])
            let conversation = try await store.createConversation(kind: .direct, creatorID: ada, memberIDs: [bob], now: 1).conversation.id
            // As an older version left accounts that had sent and received nothing: without clock rows.
            try await store.transaction("test") { db, log in try await db.run("DELETE FROM account_clocks", log) }
            #expect(try await clocks(store).isEmpty)
            let stamps = try await withThrowingTaskGroup(of: StoredMessage.self) { group in
                for round in 0..<8 {
                    group.addTask {
                        try await store.insertMessage(Sample.message(conversation, from: ada, to: [(bob, 1)], clientID: "m\(round)"), now: 5_000)
                    }
                }
                var stored: [StoredMessage] = []
                for try await message in group { stored.append(message) }
                return stored
            }
            #expect(stamps.filter(\.created).count == 8)
            #expect(Set(stamps.map(\.timestamp)).count == 8, "two messages of one account at one timestamp")
            #expect(try await clocks(store) == [ada, bob])
            // Bob's device pages through all eight, in order, none skipped.
            var after: Int64 = 0
            var seen = 0
            while let last = try await store.messages(accountID: bob, deviceID: 1, afterTimestamp: after, limit: 3).last {
                #expect(last.timestamp > after)
                seen += try await store.messages(accountID: bob, deviceID: 1, afterTimestamp: after, limit: 3).count
                after = last.timestamp
            }
            #expect(seen == 8)
            // A retry of a stored message finds it, clock or no clock.
            let retry = try await store.insertMessage(Sample.message(conversation, from: ada, to: [(bob, 1)], clientID: "m3"), now: 5_000)
            #expect(!retry.created)

            // Only the recipient without a clock row, the sender with one (its undelivered bytes are then read).
            try await store.transaction("test") { db, log in try await db.run("DELETE FROM account_clocks WHERE account_id = \(bob)", log) }
            let mixed = try await store.insertMessage(Sample.message(conversation, from: ada, to: [(bob, 1)], clientID: "mixed"), now: 6_000)
            #expect(mixed.created)
            #expect(try await clocks(store) == [ada, bob])
        }
    }

    /// The accounts that have a clock row, in id order.
    func clocks(_ store: PostgresStore) async throws -> [Int64] {
        try await store.read { db, log in try await db.column("SELECT account_id FROM account_clocks ORDER BY account_id", log, as: Int64.self) }
    }
}
