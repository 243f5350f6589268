import Foundation
import GRDB
import Logging
import NIOSSL

/// `parley server --check`: everything that would stop the server from starting, found without starting it.
public enum ServerCheck {
    /// One line per problem; empty when the configuration is good. Never changes the database.
    public static func problems(_ configuration: ServerConfiguration, logger: Logger) async -> [String] {
        var problems: [String] = []
        if let problem = tlsProblem(configuration) { problems.append(problem) }
        if let problem = dataDirectoryProblem(configuration.dataDirectory) { problems.append(problem) }
        if let problem = await databaseProblem(configuration, logger: logger) { problems.append(problem) }
        return problems
    }

    static func tlsProblem(_ configuration: ServerConfiguration) -> String? {
        for path in [configuration.tlsCertificatePath, configuration.tlsKeyPath].compactMap({ $0 })
        where !FileManager.default.isReadableFile(atPath: path) {
            return "TLS: \(path) is not a readable file"
        }
        do {
            _ = try TLSConfiguration.serverContext(configuration)
            return nil
        } catch {
            return "TLS: \(error)"
        }
    }

    static func dataDirectoryProblem(_ directory: URL) -> String? {
        var isDirectory: ObjCBool = false
        let path = directory.path
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { return "data directory: \(path) is not a directory" }
            guard FileManager.default.isWritableFile(atPath: path) else { return "data directory: \(path) is not writable" }
            return nil
        }
        // The server creates a missing data directory; that needs a writable parent.
        let parent = directory.deletingLastPathComponent().path
        guard FileManager.default.isWritableFile(atPath: parent) else {
            return "data directory: \(path) does not exist and \(parent) is not writable"
        }
        return nil
    }

    static func databaseProblem(_ configuration: ServerConfiguration, logger: Logger) async -> String? {
        if let url = configuration.databaseURL {
            do {
                let connection = try await PostgresStore.openConnection(url, logger: logger)
                let pending: [String]
                do {
                    pending = try await PostgresMigrations.pending(connection, logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
                return pending.isEmpty ? nil : "database: \(url) lacks \(pending.count) migration(s) (\(pending.joined(separator: ", "))); the server applies them at start"
            } catch {
                return "database: \(PostgresStore.storeError(error, "checking \(url)"))"
            }
        }
        let path = configuration.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            return "database: \(path) does not exist yet; the server creates and migrates it at start"
        }
        do {
            var readOnly = Configuration()
            readOnly.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: readOnly)
            let complete = try await queue.read { try SQLiteMigrations.migrator.hasCompletedMigrations($0) }
            return complete ? nil : "database: \(path) lacks migrations; the server applies them at start"
        } catch {
            return "database: cannot read \(path) (\(SQLiteStore.reason(error)))"
        }
    }
}
