import Foundation
@testable import ParleyClient
import ParleyClientFormats
import Testing

/// What the vault lets go of with time: once a day, and only what is past its period.
@Suite("Daily pruning")
struct DailyPruningTests {
    static func retire(_ key: String, at time: Int64, in database: ClientDatabase) throws {
        let record = RetiredIdentity(seed: Array(repeating: 9, count: 32), retiredAt: time)
        try database.write { try $0.put(Namespace.retiredIdentity, key, Array(try JSONEncoder().encode(record))) }
    }

    static func retired(_ database: ClientDatabase) throws -> Set<String> {
        Set(try database.read { try $0.all(Namespace.retiredIdentity) }.map(\.key))
    }

    @Test("retired identities go after 30 days (an unreadable record too), at most once a day, and again when the clock is set back")
    func retiredIdentities() throws {
        let account = try ScratchAccount("pruning")
        let clock = ForwardClock()
        let pruning = DailyPruning(dependencies: AccountContext(database: account.database, directory: account.url, clock: clock))
        let now = clock.now(), day: Int64 = 86_400_000
        try Self.retire("old", at: now - 31 * day, in: account.database)
        try Self.retire("young", at: now - 29 * day, in: account.database)
        try account.database.write { try $0.put(Namespace.retiredIdentity, "garbage", [0xFF]) }

        try pruning.runIfDue()
        #expect(try Self.retired(account.database) == ["young"])

        // Within the day nothing runs, even for a record already past its period.
        try Self.retire("late", at: now - 40 * day, in: account.database)
        try pruning.runIfDue()
        #expect(try Self.retired(account.database) == ["young", "late"])

        // A day on, it runs; "young" is 30 days and a moment old by then.
        clock.advance(days: 1)
        try pruning.runIfDue()
        #expect(try Self.retired(account.database) == [])

        // The last run's time ahead of the clock (set back) counts as due.
        try account.database.write { try $0.put(Namespace.state, "pruned_at", Array(String(clock.now() + 5 * day).utf8)) }
        try Self.retire("again", at: now - 40 * day, in: account.database)
        try pruning.runIfDue()
        #expect(try Self.retired(account.database) == [])
    }
}
