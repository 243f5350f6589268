import Foundation
import GRDB
import Logging
@testable import ParleyServer
import PostgresNIO

/// The shape of every migration test: a database stopped at one migration, filled with rows in that version's
/// schema, then opened as a store — which applies the migrations after it — and checked.
enum MigrationHarness {
    /// A SQLite file migrated up to `migration` and holding `rows` (SQL statements), opened as a store for `check`.
    static func sqlite(upTo migration: String, rows: [String], check: (SQLiteStore) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("parley.sqlite").path
        try fill(path, upTo: migration, rows: rows)
        let store = try SQLiteStore(path: path)
        do {
            try await check(store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Written outside the async context: GRDB's synchronous queue API.
    private static func fill(_ path: String, upTo migration: String, rows: [String]) throws {
        let queue = try DatabaseQueue(path: path)
        try SQLiteMigrations.migrator.migrate(queue, upTo: migration)
        try queue.write { db in
            for statement in rows { try db.execute(sql: statement) }
        }
        try queue.close()
    }

    /// A new PostgreSQL database migrated through `migration` and holding `rows`, opened as a store for `check`;
    /// dropped afterwards whatever happened.
    static func postgres(through migration: String, rows: [String], check: (PostgresStore) async throws -> Void) async throws {
        var logger = Logger(label: "parley.test-migration")
        logger.logLevel = .critical
        let url = try await PostgresCluster.newDatabase()
        do {
            let connection = try await PostgresStore.openConnection(url, logger: logger)
            do {
                try await PostgresMigrations.migrate(connection, logger: logger, through: migration)
                for statement in rows { try await connection.run(PostgresQuery(unsafeSQL: statement), logger) }
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
            let store = try await PostgresStore.connect(url, logger: logger, maximumConnections: 2, callTimeout: .seconds(120))
            do {
                try await check(store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        } catch {
            await PostgresCluster.dropDatabase(url)
            throw error
        }
        await PostgresCluster.dropDatabase(url)
    }
}
