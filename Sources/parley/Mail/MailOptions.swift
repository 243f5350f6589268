import ArgumentParser
import Foundation
import ParleyClient
import ParleyMail
import ParleyTerminal

/// Which home and which mail account a `parley mail` command works on.
struct MailOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Parley's data directory (default ~/.parley, or PARLEY_HOME).", valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp("Which mail account, when the home has several.", valueName: "email"))
    var account: String?

    var homeURL: URL { ParleyHome.url(home) }

    /// The chosen account's address.
    func email() throws -> String {
        if let account { return account.lowercased() }
        let accounts = MailStore.accounts(home: homeURL)
        switch accounts.count {
        case 0: throw CommandFailure("no mail account in \(homeURL.path): add one with `parley mail account add`")
        case 1: return accounts[0]
        default: throw CommandFailure("this home has several mail accounts (\(accounts.joined(separator: ", "))); pick one with --account")
        }
    }

    /// Opens the account's store, asking for its PIN (PARLEY_PIN or a prompt) when it has one.
    func open() throws -> MailStore {
        let email = try email()
        let pin = MailStore.needsPIN(home: homeURL, email: email)
            ? String(decoding: try SecretInput.pin(prompt: "Mail store PIN for \(email): ", fromStandardInput: false), as: UTF8.self)
            : nil
        return try MailFailure.run { () throws(MailboxError) in try MailStore.open(home: homeURL, email: email, pin: pin) }
    }
}

/// Where `read`, `save`, `send` and `reply` find OpenPGP keys and the pass phrase.
struct MailKeyOptions: ParsableArguments {
    @Option(help: "A standalone OpenPGP keyring directory.") var keyring: String?
    @Option(help: "A file whose first line is the pass phrase of your secret key.") var passphraseFile: String?
}

extension MailOptions {
    /// `parley pgp`'s key options for this home: `--keyring` when given, else the chat account with the same
    /// address when there is one, else `HOME/pgp` (PGPOptions decides).
    func pgpOptions(email: String, keys: MailKeyOptions) throws -> PGPOptions {
        let keyring = keys.keyring, passphraseFile = keys.passphraseFile
        var arguments = ["--home", homeURL.path]
        if AccountHome.accounts(in: homeURL).contains(email) { arguments += ["--account", email] }
        if let keyring { arguments += ["--keyring", keyring] }
        if let passphraseFile { arguments += ["--passphrase-file", passphraseFile] }
        return try PGPOptions.parse(arguments)
    }
}

/// The pass phrase, asked for at most once per command (`reply` needs it to read the original and to sign).
final class PassphraseOnce {
    private let pgp: PGPOptions
    private var known: [UInt8]?

    init(_ pgp: PGPOptions) { self.pgp = pgp }

    func get() throws -> [UInt8] {
        if let known { return known }
        let value = try pgp.passphrase()
        known = value
        return value
    }

    /// The pass phrase when there is a way to get one; with none (no --passphrase-file, no PARLEY_PGP_PASSPHRASE,
    /// no terminal to ask at) nothing, so a message is still shown and each part that needs the key says how to
    /// give its pass phrase.
    func available() throws -> [[UInt8]] {
        let fromEnvironment = !(ProcessInfo.processInfo.environment["PARLEY_PGP_PASSPHRASE"] ?? "").isEmpty
        guard known != nil || pgp.passphraseFile != nil || fromEnvironment || isatty(STDIN_FILENO) == 1 else { return [] }
        return [try get()]
    }
}

/// A `MailboxError` as the command line shows it.
enum MailFailure {
    static func run<T>(_ body: () throws(MailboxError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws(MailboxError) -> T) async throws -> T {
        do {
            return try await MailThread.run(body)
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
