import ArgumentParser
import Foundation
import ParleyPGP
import ParleyCrypto
import ParleyTerminal

extension Parley.PGP {
    /// `parley pgp keys`: generate, import, list, export and re-protect keys in the keyring.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "Manage the OpenPGP keys in your keyring.",
            subcommands: [Generate.self, Import.self, List.self, Export.self, Passphrase.self])
    }
}

extension Parley.PGP.Keys {
    /// `parley pgp keys generate`.
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Make a new key (Ed25519 + Cv25519, or RSA on request), protected by a pass phrase of 12+ characters.")
        @OptionGroup var options: PGPOptions
        @Option(name: .customLong("user-id"), help: "A user ID, e.g. \"Ada Lovelace <ada@example.org>\" (repeatable).")
        var userIDs: [String] = []
        @Option(help: "Make an RSA key of this many bits (2048, 3072 or 4096) instead of Ed25519/Cv25519.")
        var rsa: Int?
        @Option(help: "rfc9580: a v6 Ed25519/X25519 key (RFC 9580; GnuPG 2.2 cannot read it). Default: v4, what GnuPG 2.2 makes.")
        var profile: PGPProfile?

        func run() async throws {
            guard !userIDs.isEmpty else { throw ValidationError("give at least one --user-id \"Name <email>\"") }
            let keyring = try options.openKeyring()
            let passphrase = try options.passphrase("New pass phrase (12 characters or more)")
            try PGPPassphrase.check(passphrase)
            if profile == .rfc9580, rsa != nil { throw ValidationError("--rsa makes a v4 key; leave it out with --profile rfc9580") }
            let key = try PGPFailure.run {
                if profile == .rfc9580 {
                    return try KeyGenerator.generateV6(userIDs: userIDs, passphrase: passphrase, now: PGPFailure.now)
                }
                if let rsa {
                    guard let size = KeyGenerator.RSASize(rawValue: rsa) else {
                        throw CommandFailure("--rsa takes 2048, 3072 or 4096")
                    }
                    return try KeyGenerator.generateRSA(userIDs: userIDs, bits: size, passphrase: passphrase, now: PGPFailure.now)
                }
                return try KeyGenerator.generate(userIDs: userIDs, passphrase: passphrase, now: PGPFailure.now)
            }
            try keyring.store(key)
            let kind = profile == .rfc9580 ? "v6 Ed25519/X25519" : rsa.map { "RSA-\($0)" } ?? "Ed25519/Cv25519"
            Console.out("Generated \(kind) key \(Hex.upper(key.fingerprint))")
            for userID in key.userIDs { Console.out("  \(userID.string)") }
            Console.out("Share your public key with: parley pgp keys export \(Hex.upper(key.fingerprint))")
        }
    }

    /// `parley pgp keys import`.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import certificates or secret keys (armored or binary, e.g. from gpg --export[-secret-keys]).",
            discussion: "An unprotected secret key is protected with your pass phrase before it is stored.")
        @OptionGroup var options: PGPOptions
        @Argument(help: "Key files ('-' for standard input).") var files: [String] = ["-"]

        func run() async throws {
            let keyring = try options.openKeyring()
            for file in files {
                let bytes = try PGPIO.read(file)
                let keys = try PGPFailure.run { try Certificate.readAll(bytes) }
                guard !keys.isEmpty else { throw CommandFailure("\(file) holds no OpenPGP key: check you gave a key file") }
                for var key in keys {
                    if key.isSecret, !key.isFullyProtected {
                        let passphrase = try options.passphrase("Pass phrase to protect the imported secret key")
                        try PGPPassphrase.check(passphrase)
                        key = try PGPFailure.run { try key.reprotected(oldPassphrases: [], newPassphrase: passphrase) }
                    }
                    let isNew = try keyring.store(key)
                    let name = key.userIDs.first?.string ?? "(no user ID)"
                    Console.out("\(isNew ? "Imported" : "Updated") \(key.isSecret ? "secret key" : "certificate") \(Hex.upper(key.fingerprint)) \(name)")
                }
            }
        }
    }

    /// `parley pgp keys list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the keys in the keyring ('sec' when you hold the secret key).")
        @OptionGroup var options: PGPOptions

        func run() async throws {
            let keyring = try options.openKeyring()
            if let directory = keyring as? PGPKeyring, !directory.exists {
                // A mistyped --keyring: said, and nothing made there.
                throw CommandFailure("there is no keyring at \(directory.location): check the path, or make one there with `parley pgp keys generate --keyring \(directory.location)`")
            }
            let secrets = Set(try keyring.secretKeys().map { Hex.upper($0.fingerprint) })
            let certificates = try keyring.certificates()
            guard !certificates.isEmpty else {
                Console.out("No keys in \(keyring.location): make one with `parley pgp keys generate` or import one with `parley pgp keys import`.")
                return
            }
            let now = PGPFailure.now
            for certificate in certificates {
                let secret = secrets.contains(Hex.upper(certificate.fingerprint))
                for line in certificate.listing(secret: secret, now: now) { Console.out(line) }
            }
        }
    }

    /// `parley pgp keys export`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Print a certificate (or, with --secret, the protected secret key) as armored text.")
        @OptionGroup var options: PGPOptions
        @Argument(help: "Fingerprint, key ID or part of a user ID.") var key: String
        @Flag(help: "Export the secret key (still protected by its pass phrase).") var secret = false
        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.") var output: String?

        func run() async throws {
            let keyring = try options.openKeyring()
            let certificate = try keyring.one(key, in: secret ? keyring.secretKeys() : keyring.certificates())
            let text = secret ? certificate.armored : certificate.publicCertificate.armored
            try PGPIO.write(Array(text.utf8), to: output ?? "-", mode: secret ? 0o600 : 0o644)
        }
    }

    /// `parley pgp keys passphrase`.
    struct Passphrase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase",
            abstract: "Change the pass phrase of a secret key.",
            discussion: "The new pass phrase comes from --new-passphrase-file, PARLEY_PGP_NEW_PASSPHRASE or a prompt.")
        @OptionGroup var options: PGPOptions
        @Argument(help: "Fingerprint, key ID or part of a user ID.") var key: String
        @Option(help: "A file whose first line is the new pass phrase.") var newPassphraseFile: String?

        func run() async throws {
            let keyring = try options.openKeyring()
            let certificate = try keyring.one(key, in: keyring.secretKeys())
            let old = try options.passphrase("Current pass phrase")
            let new = try PGPSecrets.read(file: newPassphraseFile, environment: "PARLEY_PGP_NEW_PASSPHRASE", prompt: "New pass phrase: ",
                                          advice: "pass --new-passphrase-file FILE, set PARLEY_PGP_NEW_PASSPHRASE, or run in a terminal")
            try PGPPassphrase.check(new, new: true)
            let changed = try PGPFailure.run { try certificate.reprotected(oldPassphrases: [old], newPassphrase: new) }
            try keyring.store(changed)
            Console.out("Changed the pass phrase of \(Hex.upper(changed.fingerprint)).")
        }
    }
}
