import ArgumentParser
import Foundation
import Logging
import ParleyCrypto
import ParleyServer

extension RegistrationMode: ExpressibleByArgument {}

extension Parley.Server {
    /// `parley server admin …`: the operator's commands, run on the server's machine against its database.
    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin",
            abstract: "Administer a server from its own machine: invites, accounts, devices, statistics.",
            discussion: """
                These open the server's database directly (--data for SQLite, --database or $PARLEY_DATABASE_URL \
                for PostgreSQL), whether the server is running or not; nothing goes over the network. What must \
                reach live connections (disabling, deleting, removing a device) goes to a running SQLite server \
                through DATA/admin.sock (owner-only), and to every node of a PostgreSQL cluster through its event \
                channel (docs/OPERATIONS.md §8).
                """,
            subcommands: [Invites.self, Accounts.self, Devices.self, Stats.self])
    }
}

extension Parley.Server.Admin {
    /// `parley server admin invites …`.
    struct Invites: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "invites",
            abstract: "Make, list and revoke the invite codes a server with --registration invite asks for.",
            subcommands: [Create.self, List.self, Revoke.self],
            defaultSubcommand: List.self)
    }

    /// Where the server's database is.
    struct DatabaseOptions: ParsableArguments {
        @OptionGroup var storage: StorageOptions
        @Flag(help: "Print JSON.") var json = false
        var data: String { storage.data }
        var database: String? { storage.database }

        /// Opens the store, runs `body` with it, and closes it.
        func withStore<T>(_ body: (any Store) async throws -> T) async throws -> T {
            var logger = Logger(label: "parley.admin")
            logger.logLevel = .error
            if let text = database ?? ProcessInfo.processInfo.environment["PARLEY_DATABASE_URL"], !text.isEmpty {
                let url: PostgresURL
                do { url = try PostgresURL(text) } catch { throw CommandFailure("--database: \(error)") }
                let store = try await PostgresStore.connect(url, logger: logger, maximumConnections: 2)
                do {
                    let value = try await body(store)
                    await store.close()
                    return value
                } catch {
                    await store.close()
                    throw error
                }
            }
            let path = URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("parley.sqlite").path
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure("no Parley database in \(data) (give the server's --data directory)")
            }
            return try await body(try SQLiteStore(path: path))
        }
    }
}
