import Foundation
import GRDB

/// The default `Store`: one SQLite file in WAL mode, `synchronous = FULL` so that a write is
/// on disk before the server acknowledges it, and versioned migrations run at open.
public final class SQLiteStore: Store {
    let pool: DatabasePool

    /// Opens (creating if needed) the database at `path` and migrates it to the current schema.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        configuration.busyMode = .timeout(5)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try SQLiteMigrations.migrator.migrate(pool)
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
        do {
            return try await pool.write(body)
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            throw StoreError.conflict(what)
        } catch {
            throw StoreError.unavailable("\(what) failed (\(Self.reason(error)))")
        }
    }

    /// Runs a read.
    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw StoreError.unavailable("read failed (\(Self.reason(error)))")
        }
    }
}
