import Foundation
import GRDB
import ParleyClientFormats
import ParleyVault

/// The client's one SQLite file. Every sensitive value is sealed under the MainKey with a binding that
/// names its row (`namespace/key`, `message/ID`), so a value copied or swapped into another row fails
/// to open. Only metadata the server already knows (message ids, conversation ids, timestamps) is clear.
final class ClientDatabase: Sendable {
    let queue: DatabaseQueue
    let lock: AutoLock

    /// Opens (creating if needed) the database at `path`; keys come from `lock` while it is unlocked.
    init(path: URL, lock: AutoLock) throws(ClientError) {
        self.lock = lock
        // 0600 before SQLite opens it, so the -wal and -shm SQLite makes beside it are 0600 too.
        try PrivateFiles.prepare(path)
        PrivateFiles.narrow(["-wal", "-shm"].map { URL(fileURLWithPath: path.path + $0) })
        do {
            var configuration = Configuration()
            // Another process (a second `parley` command) may have the file open: wait rather than fail.
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
            queue = try DatabaseQueue(path: path.path, configuration: configuration)
            // WAL lets readers in other processes run beside the writer.
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try ClientMigrations.migrator.migrate(queue)
        } catch {
            throw .storage("cannot open \(path.lastPathComponent): \(error)")
        }
    }

    /// Reads in one transaction.
    func read<T>(_ body: (Reader) throws -> T) throws(ClientError) -> T {
        do {
            return try queue.unsafeReentrantRead { db in try body(Reader(db: db, lock: lock)) }
        } catch {
            throw Self.clientError(error)
        }
    }

    /// Writes in one durable transaction: all of `body` or nothing. Reentrant: a write inside a write
    /// joins the outer transaction, so a received message, the ratchet step that decrypted it and the
    /// sync cursor commit together.
    func write<T>(_ body: (Writer) throws -> T) throws(ClientError) -> T {
        do {
            return try queue.unsafeReentrantWrite { db in
                if db.isInsideTransaction { return try body(Writer(db: db, lock: lock)) }
                var result: T?
                try db.inTransaction {
                    result = try body(Writer(db: db, lock: lock))
                    return .commit
                }
                return result!
            }
        } catch {
            throw Self.clientError(error)
        }
    }

    static func clientError(_ error: any Error) -> ClientError {
        switch error {
        case let error as ClientError: error
        case let error as VaultError: .vault(error)
        case is ClientFormatError: .cannotDecrypt
        default: .storage(String(describing: error))
        }
    }
}

extension ClientDatabase {
    /// Read access within a transaction.
    struct Reader {
        let db: Database
        let lock: AutoLock

        /// The opened value of `namespace/key`, or nil.
        func get(_ namespace: String, _ key: String) throws -> [UInt8]? {
            guard let sealed = try Data.fetchOne(db, sql: "SELECT value FROM records WHERE namespace = ? AND key = ?",
                                                    arguments: [namespace, key]) else { return nil }
            return try open(Array(sealed), binding: "\(namespace)/\(key)")
        }

        /// Every key and opened value of a namespace, in key order.
        func all(_ namespace: String) throws -> [(key: String, value: [UInt8])] {
            try Row.fetchAll(db, sql: "SELECT key, value FROM records WHERE namespace = ? ORDER BY key", arguments: [namespace])
                .map { row in
                    let key: String = row["key"]
                    return (key, try open(Array(row["value"] as Data), binding: "\(namespace)/\(key)"))
                }
        }

        func open(_ sealed: [UInt8], binding: String) throws -> [UInt8] {
            try lock.withKey { key in try key.open(sealed, binding: binding) }
        }
    }

    /// Write access within a transaction.
    struct Writer {
        let db: Database
        let lock: AutoLock

        var reader: Reader { Reader(db: db, lock: lock) }

        /// Seals and stores `value` as `namespace/key`.
        func put(_ namespace: String, _ key: String, _ value: [UInt8]) throws {
            let sealed = try seal(value, binding: "\(namespace)/\(key)")
            try db.execute(sql: "INSERT OR REPLACE INTO records (namespace, key, value) VALUES (?, ?, ?)",
                           arguments: [namespace, key, Data(sealed)])
        }

        /// Removes every value of a namespace.
        func deleteAll(_ namespace: String) throws {
            try db.execute(sql: "DELETE FROM records WHERE namespace = ?", arguments: [namespace])
        }

        /// Removes `namespace/key`.
        func delete(_ namespace: String, _ key: String) throws {
            try db.execute(sql: "DELETE FROM records WHERE namespace = ? AND key = ?", arguments: [namespace, key])
        }

        func seal(_ value: [UInt8], binding: String) throws -> [UInt8] {
            try lock.withKey { key in key.seal(value, binding: binding) }
        }
    }
}
