import ArgumentParser
import Foundation
import ParleyServer
import ParleyTerminal

extension Parley.Server {
    /// `parley server backup -o FILE`.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a consistent backup of the server's SQLite database, while it runs.",
            discussion: """
                Everything committed before the backup began is in it, and nothing the database does not hold \
                (ciphertext, public keys, hashes). It is written owner-only and checked. For PostgreSQL use \
                pg_dump (docs/OPERATIONS.md §10).
                """)
        @OptionGroup var storage: StorageOptions
        @Option(name: .shortAndLong, help: "The backup file to write (must not exist).") var output: String

        func run() async throws {
            if let url = storage.database ?? ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"], !url.isEmpty {
                throw CommandFailure("this server uses PostgreSQL: back it up with pg_dump (docs/OPERATIONS.md §10)")
            }
            let database = URL(fileURLWithPath: storage.data, isDirectory: true).appendingPathComponent("parley.sqlite").path
            let started = Date()
            do {
                try SQLiteBackup.backup(databaseAt: database, to: output)
            } catch {
                throw CommandFailure("\(error)")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            Console.out("Backed up \(database) to \(output) (\(ByteCountFormatter.string(fromByteCount: Int64(size), countStyle: .file)), \(String(format: "%.1f", Date().timeIntervalSince(started))) s).")
        }
    }

    /// `parley server restore FILE`.
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Put a backup back as the server's database; the server must be stopped.",
            discussion: "The database it replaces is kept beside it as parley.sqlite.replaced-TIME.")
        @OptionGroup var storage: StorageOptions
        @Argument(help: "The backup file (from 'parley server backup').") var backup: String

        func run() async throws {
            let directory = URL(fileURLWithPath: storage.data, isDirectory: true)
            let keptAs: String?
            do {
                try SQLiteBackup.check(backup)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                keptAs = try SQLiteBackup.restore(from: backup, into: directory)
            } catch {
                throw CommandFailure("nothing was changed: \(error)")
            }
            Console.out("Restored \(backup) into \(directory.path)." + (keptAs.map { " The database it replaced is kept as \($0)." } ?? ""))
        }
    }
}
