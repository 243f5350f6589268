import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal
import ParleyPGP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Parley {
    /// `parley pgp`: friendly OpenPGP — keys in a keyring directory, encrypt, decrypt, sign, verify.
    /// Files stream in constant memory; decrypted output appears only once authenticated.
    struct PGP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pgp",
            abstract: "OpenPGP keys, encryption and signatures (interoperates with GnuPG and Sequoia).",
            discussion: """
                Keys live in the vault of your Parley account (the one in --home, or PARLEY_HOME, or ~/.parley; \
                --account when there are several), sealed under its MainKey; or, with --keyring DIR or \
                PARLEY_PGP_KEYRING, in a standalone keyring directory (also HOME/pgp when the home has no account). \
                Secret keys are stored protected by their pass phrase as well, which is read from --passphrase-file, \
                PARLEY_PGP_PASSPHRASE or a prompt — never from the command line.
                """,
            subcommands: [Keys.self, Encrypt.self, Decrypt.self, Sign.self, Verify.self, ReadMail.self]
        )
    }
}

/// Options every `parley pgp` subcommand shares.
struct PGPOptions: ParsableArguments {
    @Option(help: "A standalone keyring directory instead of your account's vault (default: PARLEY_PGP_KEYRING).")
    var keyring: String?

    @Option(help: ArgumentHelp("Parley's data directory, whose account vault holds the keys (default ~/.parley, or PARLEY_HOME).", valueName: "dir"))
    var home: String?

    @Option(help: ArgumentHelp("Which account's vault, when the home has several.", valueName: "email"))
    var account: String?

    @Option(help: "A file whose first line is the pass phrase of your secret key (else PARLEY_PGP_PASSPHRASE or a prompt).")
    var passphraseFile: String?

    /// Where the keys are: `--keyring` or PARLEY_PGP_KEYRING; else the vault of the home's account
    /// (unlocked with PARLEY_PIN or a prompt when it has a PIN); else `HOME/pgp` when the home has none.
    func openKeyring() throws -> any PGPKeyStore {
        let home = ParleyHome.url(self.home)
        let choice = try PGPKeyStoreChoice.choose(keyring: keyring, environment: ProcessInfo.processInfo.environment, account: account,
                                                  accounts: keyring == nil ? AccountHome.accounts(in: home) : [], homePath: home.path)
        switch choice {
        case .keyring(let path):
            return try PGPKeyring(directory: path)
        case .vault(let email):
            let access = try VaultAccess.access(home: home, email: email)
            do {
                return PGPVaultKeys(client: try ParleyClient.open(home: home, email: email, access: access))
            } catch {
                throw CommandFailure("\(error)")
            }
        }
    }

    /// The pass phrase for secret keys: file, environment, then a prompt; `what` names it in the prompt.
    func passphrase(_ what: String = "Pass phrase for your secret key") throws -> [UInt8] {
        try PGPSecrets.read(file: passphraseFile, environment: "PARLEY_PGP_PASSPHRASE", prompt: "\(what): ",
                            advice: "pass --passphrase-file FILE, set PARLEY_PGP_PASSPHRASE, or run in a terminal to be asked")
    }
}

/// Reads pass phrases and passwords from a file, the environment or a hidden prompt — never argv.
enum PGPSecrets {
    static func read(file: String?, environment: String, prompt: String, advice: String) throws -> [UInt8] {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure("\(file) cannot be read: check the path and its permissions")
            }
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
            let value = line.hasSuffix("\r") ? line.dropLast() : line
            guard !value.isEmpty else { throw CommandFailure("\(file) is empty: put the pass phrase on its first line") }
            return Array(value.utf8)
        }
        if let value = ProcessInfo.processInfo.environment[environment], !value.isEmpty { return Array(value.utf8) }
        guard isatty(STDIN_FILENO) == 1 else { throw CommandFailure("no pass phrase given: \(advice)") }
        return Array(try SecretInput.readHidden(prompt: prompt).utf8)
    }
}

/// Turns ParleyPGP errors into messages that say what to do.
enum PGPFailure {
    /// `error` in the user's words: an OpenPGP error with ParleyPGP's advice for it (`PGPError.advice`).
    static func message(_ error: Error, keyring: String? = nil) -> CommandFailure {
        guard let error = error as? PGPError else {
            return CommandFailure(String(describing: error))
        }
        return CommandFailure(error.advice(keyring: keyring))
    }

    /// Runs `body`, converting thrown OpenPGP errors into friendly failures.
    static func run<T>(keyring: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PGPError {
            throw message(error, keyring: keyring)
        } catch let error as PGPFiles.Failure {
            throw CommandFailure(error.description)
        } catch let error as PGPStreamIOError {
            throw CommandFailure(error.description)
        }
    }

    /// "Now" as OpenPGP time.
    static var now: UInt32 { UInt32(Date().timeIntervalSince1970) }

}
