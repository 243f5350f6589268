import Foundation
import Logging
import ParleyWire

/// The operator's work on a server's database (`parley server admin`): finding an account by number or e-mail,
/// disabling, enabling and deleting it, removing a device, invites and statistics — each change then told to
/// the running server(s), so live connections follow it. Refusals are `AdministrationError`s in the operator's words.
public struct ServerAdministration: Sendable {
    /// The open store.
    public let store: any Store
    /// The server's data directory (where a running SQLite server's admin socket is).
    public let dataDirectory: URL
    /// Told when a saved change could not reach the running server.
    public let warn: @Sendable (String) -> Void

    /// Administration of `store`, whose server keeps its data in `dataDirectory`.
    public init(store: any Store, dataDirectory: URL, warn: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.dataDirectory = dataDirectory
        self.warn = warn
    }

    /// Opens the store of the server whose data is in `data` — PostgreSQL when `database` (or PARLEY_DATABASE_URL
    /// in `environment`) names one, else `DATA/parley.sqlite` — runs `body` with it, and closes it.
    public static func withStore<T>(data: String, database: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                                    warn: @escaping @Sendable (String) -> Void, _ body: (ServerAdministration) async throws -> T) async throws -> T {
        var logger = Logger(label: "parley.admin")
        logger.logLevel = .error
        let directory = URL(fileURLWithPath: data, isDirectory: true)
        if let text = database ?? environment["PARLEY_DATABASE_URL"], !text.isEmpty {
            let url: PostgresURL
            do { url = try PostgresURL(text) } catch { throw AdministrationError("--database: \(error)") }
            let store = try await PostgresStore.connect(url, logger: logger, maximumConnections: 2)
            do {
                let value = try await body(ServerAdministration(store: store, dataDirectory: directory, warn: warn))
                await store.close()
                return value
            } catch {
                await store.close()
                throw error
            }
        }
        let path = directory.appendingPathComponent("parley.sqlite").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw AdministrationError("no Parley database in \(data) (give the server's --data directory)")
        }
        return try await body(ServerAdministration(store: try SQLiteStore(path: path), dataDirectory: directory, warn: warn))
    }

    /// The account `text` names: its number or its e-mail address.
    public func account(_ text: String) async throws -> AccountRecord {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let found = if let id = Int64(trimmed) { try await store.account(id: id) } else { try await store.account(email: trimmed.lowercased()) }
        guard let found else {
            throw AdministrationError("there is no account \(trimmed.prefix(254)) on this server ('parley server admin accounts list')")
        }
        return found
    }

    /// Hands `events` to the running server(s); a server that cannot be told is reported through `warn`, not
    /// fatal: the database already holds the change.
    public func tell(_ events: [ClusterEvent]) async -> RunningServers.Reach? {
        do {
            return try await RunningServers.tell(events, store: store, dataDirectory: dataDirectory)
        } catch {
            warn("parley: the change is saved, but the running server could not be told (\(error)); restart it to be sure")
            return nil
        }
    }

    /// What the server holds about the account `text` names.
    public func summary(_ text: String) async throws -> AccountSummary {
        guard let summary = try await store.accountSummary(id: try await account(text).id) else {
            throw AdministrationError("there is no account \(text) on this server")
        }
        return summary
    }

    /// Disables the account `text` names at `now` (milliseconds) and closes its connections.
    public func disable(_ text: String, now: Int64) async throws -> (AccountRecord, RunningServers.Reach?) {
        let record = try await account(text)
        guard record.disabledAt == nil else { throw AdministrationError("\(record.email) is disabled already") }
        guard try await store.setDisabled(accountID: record.id, at: now) else {
            throw AdministrationError("there is no account \(text) on this server any more")
        }
        return (record, await tell(RunningServers.events(disabling: record.id)))
    }

    /// Lets the disabled account `text` names log in again.
    public func enable(_ text: String) async throws -> AccountRecord {
        let record = try await account(text)
        guard record.disabledAt != nil else { throw AdministrationError("\(record.email) is not disabled") }
        guard try await store.setDisabled(accountID: record.id, at: nil) else {
            throw AdministrationError("there is no account \(text) on this server any more")
        }
        return record
    }

    /// Deletes the account `text` names once `confirm` accepted it (it throws to refuse), and tells its contacts
    /// and connections.
    public func delete(_ text: String, confirm: (AccountRecord) throws -> Void) async throws -> (DeletedAccount, RunningServers.Reach?) {
        let record = try await account(text)
        try confirm(record)
        guard let deleted = try await store.deleteAccount(id: record.id) else {
            throw AdministrationError("there is no account \(text) on this server any more")
        }
        return (deleted, await tell(RunningServers.events(deleting: deleted)))
    }

    /// The devices of the account `text` names.
    public func devices(_ text: String) async throws -> [DeviceRecord] {
        try await store.devices(accountID: try await account(text).id)
    }

    /// Removes device `device` of the account `text` names and closes its connections.
    public func removeDevice(_ device: UInt32, of text: String) async throws -> (AccountRecord, RunningServers.Reach?) {
        let record = try await account(text)
        guard try await store.device(accountID: record.id, deviceID: device) != nil else {
            throw AdministrationError("\(record.email) has no device \(device) ('parley server admin devices list \(record.email)')")
        }
        try await store.removeDevice(accountID: record.id, deviceID: device)
        return (record, await tell(RunningServers.events(removingDevice: device, of: record.id)))
    }

    /// Revokes invite `id` at `now`; one that does not exist or is revoked already is refused.
    public func revokeInvite(_ id: Int64, now: Int64) async throws {
        guard try await store.revokeInvite(id: id, now: now) else {
            throw AdministrationError("there is no invite \(id) that is not revoked already ('parley server admin invites list')")
        }
    }

    /// The server's counts, and whether (and how far) a running server was reached.
    public func stats() async throws -> (ServerStats, RunningServers.Reach?) {
        (try await store.serverStats(), await tell([]))
    }
}

/// Why an administration command changed nothing, in the operator's words.
public struct AdministrationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What happened and what to do.
    public let description: String

    /// A failure described by `description`.
    public init(_ description: String) { self.description = description }
}
