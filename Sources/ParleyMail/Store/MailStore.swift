import Crypto
import Foundation
import GRDB
import ParleyVault

/// One mail account's local store (docs/MAIL.md §3): `HOME/mail/ADDRESS/` with its own MainKey file and
/// `mail.sqlite`. Credentials and everything that came from a message are sealed under the MainKey, bound to
/// their row; only what the IMAP server knows anyway (folder names, UIDs, sizes, flags, dates) is clear.
public final class MailStore: Sendable {
    let queue: DatabaseQueue
    let key: MainKey
    /// The key of the peers table's ids (docs/MAIL.md §6.3), derived once.
    let peerIDKey: SymmetricKey
    /// The account's address.
    public let email: String

    /// Where the accounts of `home` live.
    public static func root(home: URL) -> URL { home.appendingPathComponent("mail", isDirectory: true) }

    /// The directory of one account.
    public static func directory(home: URL, email: String) -> URL {
        root(home: home).appendingPathComponent(email.lowercased(), isDirectory: true)
    }

    /// The addresses with a mail store in `home`.
    public static func accounts(home: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root(home: home).path)) ?? []
        return names.filter { MainKeyFile.exists(in: directory(home: home, email: $0)) }.sorted()
    }

    /// Whether the account's MainKey asks for a PIN.
    public static func needsPIN(home: URL, email: String) -> Bool {
        (try? MainKeyFile.protection(in: directory(home: home, email: email))) == .pin
    }

    /// Creates the account: a new MainKey (PIN-wrapped with `pin`), the database, and the sealed settings.
    public static func create(home: URL, settings: MailAccountSettings, pin: String?) throws(MailboxError) -> MailStore {
        try MailAddress.check(settings.email)
        let directory = directory(home: home, email: settings.email)
        guard !MainKeyFile.exists(in: directory) else {
            throw .invalidInput("\(settings.email) has a mail account already: see `parley mail account list`")
        }
        try MailFiles.makeDirectory(directory)
        let key = MainKey.generate()
        do {
            try MainKeyFile.create(in: directory, key: key, pin: pin)
        } catch {
            throw .storage("cannot create the account's key: \(error)")
        }
        let store = try MailStore(directory: directory, email: settings.email.lowercased(), key: key)
        try store.saveSettings(settings)
        return store
    }

    /// Opens an existing account (with its PIN when it has one).
    public static func open(home: URL, email: String, pin: String?) throws(MailboxError) -> MailStore {
        let directory = directory(home: home, email: email)
        guard MainKeyFile.exists(in: directory) else {
            throw .notFound("no mail account \(email) in \(home.path): add it with `parley mail account add`")
        }
        let key: MainKey
        do {
            key = try MainKeyFile.unlock(in: directory, pin: pin)
        } catch {
            throw .storage("cannot unlock \(email)'s mail store: \(error)")
        }
        return try MailStore(directory: directory, email: email.lowercased(), key: key)
    }

    private init(directory: URL, email: String, key: MainKey) throws(MailboxError) {
        self.email = email
        self.key = key
        peerIDKey = key.subkey(purpose: "mail/peer-id")
        let path = directory.appendingPathComponent("mail.sqlite")
        try MailFiles.prepare(path)
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA secure_delete = ON")
            }
            queue = try DatabaseQueue(path: path.path, configuration: configuration)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try MailSchema.migrator.migrate(queue)
        } catch {
            throw .storage("cannot open \(path.path): \(error)")
        }
    }

    // MARK: - Sealing

    func seal(_ value: some Encodable, binding: String) throws(MailboxError) -> Data {
        do {
            return Data(key.seal(try JSONEncoder().encode(value), binding: binding))
        } catch {
            throw .storage("cannot encode \(binding)")
        }
    }

    func openSealed<T: Decodable>(_ type: T.Type, _ sealed: Data, binding: String) throws(MailboxError) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(try key.open(sealed, binding: binding)))
        } catch {
            throw .storage("a stored value (\(binding)) is damaged")
        }
    }

    /// Runs `body` in one durable transaction.
    func write<T>(_ body: (Database) throws -> T) throws(MailboxError) -> T {
        do {
            return try queue.write(body)
        } catch let error as MailboxError {
            throw error
        } catch {
            throw .storage("cannot write: \(error)")
        }
    }

    /// Runs `body` in one transaction that does not wait for the disk (`synchronous = NORMAL`; in WAL mode the
    /// database stays consistent whatever happens). For a sync's batches only: what a power cut takes is fetched
    /// again, since the batch's cursor goes with it; `makeDurable()` at the end of the sync writes it all down.
    func writeBatch<T>(_ body: (Database) throws -> T) throws(MailboxError) -> T {
        do {
            return try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch let error as MailboxError {
            throw error
        } catch {
            throw .storage("cannot write: \(error)")
        }
    }

    /// One durable commit (`synchronous = FULL`): the WAL is synced, and with it every batch written before.
    func makeDurable() throws(MailboxError) {
        try write { db in try db.execute(sql: "UPDATE account SET settings = settings WHERE id = 1") }
    }

    func read<T>(_ body: (Database) throws -> T) throws(MailboxError) -> T {
        do {
            return try queue.read(body)
        } catch let error as MailboxError {
            throw error
        } catch {
            throw .storage("cannot read: \(error)")
        }
    }

    // MARK: - Settings

    /// The account's settings (with its password).
    public func settings() throws(MailboxError) -> MailAccountSettings {
        let sealed = try read { db in try Data.fetchOne(db, sql: "SELECT settings FROM account WHERE id = 1") }
        guard let sealed else { throw .storage("the account's settings are missing") }
        return try openSealed(MailAccountSettings.self, sealed, binding: "mail/account")
    }

    /// Replaces the account's settings (the address stays).
    public func update(_ settings: MailAccountSettings) throws(MailboxError) {
        guard settings.email.lowercased() == email else { throw .invalidInput("the address of an account cannot change") }
        try saveSettings(settings)
    }

    func saveSettings(_ settings: MailAccountSettings) throws(MailboxError) {
        let sealed = try seal(settings, binding: "mail/account")
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO account (id, settings) VALUES (1, ?)", arguments: [sealed])
        }
    }
}

/// Mail addresses as directory names: nothing that could leave `HOME/mail/`.
enum MailAddress {
    static func check(_ email: String) throws(MailboxError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_+%")
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.hasPrefix("."), email.count <= 254,
              email.allSatisfy({ allowed.contains($0) || $0 == "@" }), !email.contains("..")
        else { throw .invalidInput("\"\(email.prefix(80))\" is not a mail address Parley can use (name@example.org)") }
    }
}
