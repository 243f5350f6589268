import Foundation
import GRDB

/// Online backups of a server's SQLite database and their restoration (docs/OPERATIONS.md §10).
///
/// A backup is `VACUUM INTO`: one read transaction, so it is the database as of one instant — every write
/// committed (and so acknowledged) before it began is in it — taken beside a running server without stopping
/// its writes. It holds exactly what the database holds (ciphertext, public keys, hashes), compacted.
public enum SQLiteBackup {
    /// Writes a backup of the database at `path` to `destination` (which must not exist), owner-only, and
    /// checks it.
    public static func backup(databaseAt path: String, to destination: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw BackupError("there is no Parley database at \(path)") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw BackupError("\(destination) exists; give a new file name (a backup never overwrites)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let previous = umask(0o077)
        defer { umask(previous) }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            // Outside any transaction (SQLite refuses VACUUM inside one); VACUUM INTO reads in one transaction of its own.
            try queue.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw BackupError("the backup failed (\(SQLiteStore.reason(error)))")
        }
        _ = try check(destination)
    }

    /// Checks that `path` is a Parley database this version can use; returns its migrations.
    @discardableResult
    public static func check(_ path: String) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            return try queue.read { db in
                guard try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok" else {
                    throw BackupError("\(path) is damaged (SQLite's integrity check fails)")
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("accounts") else {
                    throw BackupError("\(path) is an SQLite file but not a Parley database")
                }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                let known = Set(SQLiteMigrations.migrator.migrations)
                if let unknown = applied.first(where: { !known.contains($0) }) {
                    throw BackupError("\(path) was written by a newer Parley (migration \(unknown)); restore it with that version")
                }
                return applied
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError("\(path) is not a Parley database (\(SQLiteStore.reason(error)))")
        }
    }

    /// Puts the backup at `backup` in place as the database of `dataDirectory`, with the server stopped. The
    /// database it replaces is kept beside it as `parley.sqlite.replaced-TIME` (with its WAL). Returns that name.
    @discardableResult
    public static func restore(from backup: String, into dataDirectory: URL, now: Date = Date()) throws -> String? {
        try check(backup)
        // Refused while a server runs there.
        let lock: DataDirectoryLock
        do { lock = try DataDirectoryLock(dataDirectory) } catch { throw BackupError("the server is running with \(dataDirectory.path): stop it first") }
        defer { withExtendedLifetime(lock) {} }
        let database = dataDirectory.appendingPathComponent("parley.sqlite").path
        var keptAs: String?
        if FileManager.default.fileExists(atPath: database) {
            let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "")
            let aside = "\(database).replaced-\(stamp)"
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: database + suffix) {
                try FileManager.default.moveItem(atPath: database + suffix, toPath: aside + suffix)
            }
            keptAs = aside
        }
        let previous = umask(0o077)
        defer { umask(previous) }
        try FileManager.default.copyItem(atPath: backup, toPath: database)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: database)
        return keptAs
    }
}

/// Why a backup or a restore did not happen, in words.
public struct BackupError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}
