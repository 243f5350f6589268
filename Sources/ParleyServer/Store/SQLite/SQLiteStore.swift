import Foundation
import GRDB

/// The default `Store`: one SQLite file in WAL mode, `synchronous = FULL` so that a write is
/// on disk before the server acknowledges it, and versioned migrations run at open.
public final class SQLiteStore: Store {
    let pool: DatabasePool
    let groupCommit: GroupCommit
    let checkpointer: WALCheckpointer
    /// The writer connection's page cache: at most this much memory, used as the database grows. The pages a
    /// commit touches (the ends of the tables, each account's and conversation's index leaves) fit in it; 64 MiB
    /// cost as much time per message and grew the server by 50 MiB under load (PERFORMANCE.md).
    static let writerCacheKiB = 8_192

    /// Opens (creating if needed) the database at `path` and migrates it to the current schema.
    /// Lets a checkpoint round in flight finish, so the database file no longer changes once the server that
    /// used this store has stopped (a backup, restore or byte comparison may follow).
    public func close() async {
        let checkpointer = self.checkpointer
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                checkpointer.quiesce()
                continuation.resume()
            }
        }
    }

    public init(path: String) throws {
        var checkpointing = Configuration()
        checkpointing.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        let checkpointer = WALCheckpointer(path: path, configuration: checkpointing)
        self.checkpointer = checkpointer
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            // Dropped ciphertext (delivered envelopes) is overwritten where that costs no extra I/O, so the file
            // does not keep what a later key compromise could open.
            try db.execute(sql: "PRAGMA secure_delete = FAST")
            if !db.configuration.readonly {
                // The writer walks indexes keyed by account and conversation: with SQLite's default 2 MiB cache
                // each commit read its pages back from the file once the database outgrew it (PERFORMANCE.md).
                try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
                checkpointer.install(on: db)
            }
        }
        configuration.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
            groupCommit = GroupCommit(pool: pool)
        } catch {
            throw StoreError.unavailable("cannot open or migrate \(path) (\(Self.reason(error)))")
        }
    }

    /// The SQLite result code without any SQL text or bound values.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return "SQLite error \(error.resultCode.rawValue)" }
        return "\(type(of: error))"
    }

    /// Runs a write transaction, mapping unique-constraint failures to `.conflict`.
    func write<T: Sendable>(_ what: String, _ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { ServerMetrics.store(ContinuousClock.now - started) }
        do {
            return try await pool.write(body)
        } catch {
            throw Self.storeError(error, what)
        }
    }

    /// Runs a write in the next group commit (for the hot paths), with the same error mapping.
    func groupWrite<T: Sendable>(_ what: String, _ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { ServerMetrics.store(ContinuousClock.now - started) }
        do {
            return try await groupCommit.run(body)
        } catch {
            throw Self.storeError(error, what)
        }
    }

    static func storeError(_ error: any Error, _ what: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            return .conflict(what)
        }
        return .unavailable("\(what) failed (\(reason(error)))")
    }

    /// Runs a read.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { ServerMetrics.store(ContinuousClock.now - started) }
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError.unavailable("read failed (\(Self.reason(error)))")
        }
    }
}
