import ArgumentParser
import Foundation
import ParleyServer
import ParleyTerminal

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

        /// Opens the server's database (ParleyServer's `ServerAdministration`), runs `body`, and closes it; a change
        /// the running server could not be told of is said on standard error.
        func withAdmin<T>(_ body: (ServerAdministration) async throws -> T) async throws -> T {
            try await ServerAdministration.withStore(data: data, database: database, warn: { Console.err($0) }, body)
        }

        /// Opens the store, runs `body` with it, and closes it.
        func withStore<T>(_ body: (any Store) async throws -> T) async throws -> T {
            try await withAdmin { try await body($0.store) }
        }
    }
}
