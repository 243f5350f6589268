import Foundation
import GRDB
@testable import ParleyServer
import ParleyTestSupport
import Testing

/// The group commit (Store/SQLite/GroupCommit.swift) on a real SQLite file: each caller gets its own write's result
/// after the commit, and a write that fails leaves nothing behind, whether it was alone in its transaction or
/// shared it with others.
@Suite("SQLite group commit")
struct GroupCommitTests {
    struct Refused: Error {}

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
