import Foundation
@testable import ParleyServer
import Synchronization
import Testing

/// The PostgreSQL store's retry of transactions PostgreSQL aborted to break a deadlock (SQLSTATE 40P01).
@Suite("PostgreSQL transaction retry")
struct PostgresRetryTests {
    @Test("of two deadlocked transactions the one PostgreSQL aborts is run again, and both changes land once")
    func deadlockIsRetried() async throws {
        try await StoreBackend.withPostgresStore(maximumConnections: 4) { store in
            try await store.saveLockout(subject: "a", LockoutRecord(failures: 0, lockedUntil: 0))
            try await store.saveLockout(subject: "b", LockoutRecord(failures: 0, lockedUntil: 0))
            let counters = Counters()
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await Self.bump(store, counters, "a", then: "b") }
                    group.addTask { try await Self.bump(store, counters, "b", then: "a") }
                    try await group.waitForAll()
                }
                // At least one retry; on a loaded machine the retried transaction can meet the other again and be
                // retried once more (a fresh-clone CI run beside builds saw 4). Each change still lands exactly once.
                #expect(counters.attempts.withLock { $0 } >= 3)
                #expect(try await store.lockout(subject: "a")?.failures == 2)
                #expect(try await store.lockout(subject: "b")?.failures == 2)
            } catch {
                Issue.record("a deadlocked transaction was not retried: \(error)")
            }
        }
    }

    final class Counters: Sendable {
        let attempts = Mutex(0)
        let holding = Mutex(0)
    }

    /// Locks one row, waits until the other transaction holds its row, then wants the other's: a deadlock.
    static func bump(_ store: PostgresStore, _ counters: Counters, _ first: String, then second: String) async throws {
        try await store.transaction("test") { db, log in
            counters.attempts.withLock { $0 += 1 }
            try await db.run("UPDATE lockouts SET failures = failures + 1 WHERE subject = \(first)", log)
            counters.holding.withLock { $0 += 1 }
            for _ in 0..<200 where counters.holding.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(25)) }
            try await db.run("UPDATE lockouts SET failures = failures + 1 WHERE subject = \(second)", log)
        }
    }
}
