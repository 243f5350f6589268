import Foundation
import GRDB
@testable import ParleyServer
import ParleyTestSupport
import Synchronization
import Testing

/// The group commit (Store/SQLite/GroupCommit.swift) on a real SQLite file: each caller gets its own write's result
/// after the commit, and a write that fails leaves nothing behind, whether it was alone in its transaction or
/// shared it with others.
@Suite("SQLite group commit")
struct GroupCommitTests {
    struct Refused: Error {}

    /// How many times each write ran.
    final class Runs: Sendable {
        private let counts = Mutex([Int: Int]())
        func ran(_ n: Int) { counts.withLock { $0[n, default: 0] += 1 } }
        var all: [Int: Int] { counts.withLock { $0 } }
    }

    /// A pool on a fresh file with one table of numbers, and a group commit on it.
    static func make() throws -> (DatabasePool, GroupCommit, TemporaryDirectory) {
        let directory = try TemporaryDirectory("parley-group-commit")
        let pool = try DatabasePool(path: directory.url.appendingPathComponent("test.sqlite").path)
        try pool.write { try $0.execute(sql: "CREATE TABLE numbers (n INTEGER PRIMARY KEY)") }
        return (pool, GroupCommit(pool: pool), directory)
    }

    static func numbers(_ pool: DatabasePool) throws -> [Int] {
        try pool.read { try Int.fetchAll($0, sql: "SELECT n FROM numbers ORDER BY n") }
    }

    @Test("a write alone in its transaction that fails after writing leaves nothing, and the caller hears why")
    func aLoneFailureLeavesNothing() async throws {
        let (pool, commit, directory) = try Self.make()
        await #expect(throws: Refused.self) {
            try await commit.run { db -> Int in
                try db.execute(sql: "INSERT INTO numbers (n) VALUES (1)")
                throw Refused()
            }
        }
        #expect(try Self.numbers(pool) == [])
        // A constraint failure alone: the same.
        #expect(try await commit.run { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (2)"); return 2 } == 2)
        await #expect(throws: DatabaseError.self) {
            try await commit.run { db -> Int in
                try db.execute(sql: "INSERT INTO numbers (n) VALUES (3)")
                try db.execute(sql: "INSERT INTO numbers (n) VALUES (2)")
                return 3
            }
        }
        #expect(try Self.numbers(pool) == [2], "the failed write's first row went with it; the earlier commit stays")
        withExtendedLifetime(directory) {}
    }

    @Test("writes that share a transaction each get their own result; the failing ones are undone alone")
    func sharedTransactionsUndoOnlyTheFailures() async throws {
        let (pool, commit, directory) = try Self.make()
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for n in 1...200 {
                group.addTask {
                    do {
                        let value = try await commit.run { db -> Int in
                            try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [n])
                            if n % 7 == 0 { throw Refused() }
                            return n * 10
                        }
                        return (n, value == n * 10)
                    } catch {
                        return (n, error is Refused && n % 7 == 0 ? true : false)
                    }
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 200 && outcomes.values.allSatisfy { $0 }, "every caller got its own answer")
        #expect(try Self.numbers(pool) == (1...200).filter { $0 % 7 != 0 })
        withExtendedLifetime(directory) {}
    }

    @Test("writes that all succeed run once; after a failure in their commit they run again, and what they wrote is there once")
    func aFailureRerunsItsCommitWithoutDoubling() async throws {
        let (pool, commit, directory) = try Self.make()
        try await pool.write { try $0.execute(sql: "CREATE TABLE log (n INTEGER NOT NULL)") }
        let runs = Runs()
        /// 100 writes at once (so commits hold several), each appending to a table without a key: a write whose
        /// effects were kept twice would show as two rows.
        func burst(_ base: Int, failing: Set<Int>) async -> [Int: Bool] {
            await withTaskGroup(of: (Int, Bool).self) { group in
                for n in base..<(base + 100) {
                    group.addTask {
                        do {
                            _ = try await commit.run { db -> Int in
                                runs.ran(n)
                                try db.execute(sql: "INSERT INTO log (n) VALUES (?)", arguments: [n])
                                if failing.contains(n) { throw Refused() }
                                return n
                            }
                            return (n, true)
                        } catch {
                            return (n, false)
                        }
                    }
                }
                return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
        }
        let clean = await burst(0, failing: [])
        #expect(clean.values.allSatisfy { $0 })
        #expect(runs.all.values.allSatisfy { $0 == 1 }, "no write ran twice when none failed")

        let failing: Set<Int> = [1_013, 1_057, 1_099]
        let mixed = await burst(1_000, failing: failing)
        #expect(mixed.filter { !$0.value }.map(\.key).sorted() == failing.sorted())
        let logged = try await pool.read { try Int.fetchAll($0, sql: "SELECT n FROM log ORDER BY n") }
        #expect(logged == Array(0..<100) + (1_000..<1_100).filter { !failing.contains($0) }, "each write's row once; the failed ones' never")
        #expect(runs.all.values.allSatisfy { $0 <= 2 }, "a write runs at most twice: alone, then with savepoints")
        withExtendedLifetime(directory) {}
    }

    @Test("after commits of several writes, writes during the pause and after an empty pause still commit", .timeLimit(.minutes(1)))
    func writesAroundAPauseCommit() async throws {
        let (pool, commit, directory) = try Self.make()
        for round in 0..<20 {
            // Several at once: the commit holds more than one, so the next is paced.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for k in 0..<10 {
                    group.addTask { _ = try await commit.run { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [round * 100 + k]) } }
                }
                try await group.waitForAll()
            }
            // One alone right after (it may arrive during the pause), then one after any pause has passed.
            _ = try await commit.run { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [round * 100 + 50]) }
            try await Task.sleep(for: CommitPacing.interval * 2)
            _ = try await commit.run { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [round * 100 + 60]) }
        }
        var expected: [Int] = []
        for round in 0..<20 {
            let base = round * 100
            expected += (0..<10).map { base + $0 }
            expected += [base + 50, base + 60]
        }
        #expect(try Self.numbers(pool) == expected)
        withExtendedLifetime(directory) {}
    }
}
