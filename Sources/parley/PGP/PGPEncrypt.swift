import ArgumentParser
import Foundation
import ParleyPGP
import ParleyTerminal

extension Parley.PGP {
    /// `parley pgp encrypt`: to keyring recipients, certificate files and/or a password; streamed.
    struct Encrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "encrypt",
            abstract: "Encrypt a file to recipients (and/or a password), optionally signed. Streams files of any size.",
            discussion: "The password for --password comes from --password-file, PARLEY_PGP_PASSWORD or a prompt.")
        @OptionGroup var options: PGPOptions
        @Option(name: .shortAndLong, help: "Recipient in the keyring: fingerprint, key ID or part of a user ID (repeatable).")
        var recipient: [String] = []
        @Option(help: "A recipient certificate file (repeatable).") var recipientFile: [String] = []
        @Flag(help: "Also encrypt to a password.") var password = false
        @Option(help: "A file whose first line is the password (implies --password).") var passwordFile: String?
        @Option(help: "Sign with this secret key from the keyring.") var signWith: String?
        @Flag(help: "Also encrypt to your own signing key, so you can read it later.") var toSelf = false
        @Option(help: "rfc4880 (SEIPD v1, what GnuPG 2.2 reads) or rfc9580 (SEIPD v2, AES-256-OCB). Default: v2 only when every recipient has a v6 key.")
        var profile: PGPProfile?
        @Flag(name: .shortAndLong, help: "ASCII-armored output.") var armor = false
        @Flag(help: "ZLIB-compress before encrypting.") var compress = false
        @Flag(help: "Replace the output file if it exists.") var force = false
        @Option(name: .shortAndLong, help: "Output file ('-' for standard output).") var output: String
        @Argument(help: "The file to encrypt ('-' for standard input).") var input: String

        func run() async throws {
            let keyring = try options.openKeyring()
            let now = PGPFailure.now
            var encryptor = Encryptor(now: now)
            if let profile { encryptor.profile = profile.encryption }
            let certificates = try keyring.certificates()
            encryptor.recipients = try recipient.flatMap { try keyring.find($0, in: certificates) }
            encryptor.recipients += try recipientFile.flatMap { file in try PGPFailure.run { try Certificate.readAll(PGPIO.read(file)) } }
            if password || passwordFile != nil {
                encryptor.passwords = [try PGPSecrets.read(file: passwordFile, environment: "PARLEY_PGP_PASSWORD", prompt: "Password for the message: ",
                                                           advice: "pass --password-file FILE, set PARLEY_PGP_PASSWORD, or run in a terminal")]
            }
            if let signWith {
                let secret = try keyring.one(signWith, in: keyring.secretKeys())
                let passphrase = try options.passphrase()
                encryptor.signers = [try PGPFailure.run { try secret.unlockedSigningKey(passphrases: [passphrase], now: now) }]
                if toSelf { encryptor.recipients.append(secret.publicCertificate) }
            } else if toSelf {
                throw ValidationError("--to-self needs --sign-with KEY (the key to encrypt to)")
            }
            guard !encryptor.recipients.isEmpty || !encryptor.passwords.isEmpty else {
                throw ValidationError("give a recipient (-r NAME, --recipient-file FILE) or --password")
            }
            encryptor.compress = compress
            let name = input == "-" ? [] : Array(URL(fileURLWithPath: input).lastPathComponent.utf8)
            try PGPIO.withInput(input) { source in
                try PGPIO.withOutput(output, replace: force, mode: 0o644, release: .asMade) { sink in
                    try encryptor.encrypt(from: source, to: sink, filename: name, armor: armor)
                }
            }
            if output != "-" { PGPIO.eprint("Encrypted to \(output).") }
        }
    }

    /// `parley pgp decrypt`: streamed; the output appears only after the integrity check passed.
    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decrypt",
            abstract: "Decrypt a message with your secret keys or a password, and check its signatures.",
            discussion: """
                The plaintext is written to a temporary file and renamed into place only after the message's \
                integrity check (MDC) passed: an altered, cut or unprotected message leaves nothing behind.
                """)
        @OptionGroup var options: PGPOptions
        @Flag(help: "Decrypt with a password (from --password-file, PARLEY_PGP_PASSWORD or a prompt).") var password = false
        @Option(help: "A file whose first line is the password (implies --password).") var passwordFile: String?
        @Option(help: "A signer's certificate file to verify with, besides the keyring (repeatable).") var verifyWith: [String] = []
        @Flag(help: "Replace the output file if it exists.") var force = false
        @Option(name: .shortAndLong, help: "Output file ('-' for standard output).") var output: String
        @Argument(help: "The encrypted message ('-' for standard input).") var input: String

        func run() async throws {
            // Said before any pass phrase is asked for (a probe was asked for one to "decrypt" a text file).
            if input != "-", let head = FileHandle(forReadingAtPath: input).map({ handle in
                defer { try? handle.close() }
                return [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
            }), !Self.mayBeOpenPGP(head) {
                throw CommandFailure("\(input) is not an OpenPGP message (neither binary packets nor a '-----BEGIN PGP MESSAGE-----' block)")
            }
            let keyring = try options.openKeyring()
            var decryptor = Decryptor(now: PGPFailure.now)
            decryptor.decompressionLimit = Int.max  // streamed to disk, so size is not a memory risk
            decryptor.verifiers = try keyring.certificates()
            decryptor.verifiers += try verifyWith.flatMap { file in try PGPFailure.run { try Certificate.readAll(PGPIO.read(file)) } }
            if password || passwordFile != nil {
                decryptor.passwords = [try PGPSecrets.read(file: passwordFile, environment: "PARLEY_PGP_PASSWORD", prompt: "Password for the message: ",
                                                           advice: "pass --password-file FILE, set PARLEY_PGP_PASSWORD, or run in a terminal")]
            } else {
                decryptor.keys = try keyring.secretKeys()
                if !decryptor.keys.isEmpty { decryptor.keyPassphrases = [try options.passphrase()] }
            }
            let result = try PGPIO.withInput(input) { source in
                try PGPIO.withOutput(output, replace: force, mode: 0o600) { sink in
                    try PGPFailure.run(keyring: keyring.location) { try decryptor.decrypt(from: source, to: sink) }
                }
            }
            if output != "-" { PGPIO.eprint("Decrypted \(result.byteCount) bytes to \(output).") }
            if !result.verifications.isEmpty { _ = PGPIO.report(result.verifications, certificates: decryptor.verifiers) }
        }

        /// Whether a message may start with `head`: a binary packet (its first byte has the high bit set), or an armor
        /// block within it. Anything else is refused at once; what passes is checked in full by the decryptor.
        static func mayBeOpenPGP(_ head: [UInt8]) -> Bool {
            guard let first = head.first else { return false }
            if first & 0x80 != 0 { return true }
            let begin = Array("-----BEGIN PGP MESSAGE-----".utf8)
            return head.count >= begin.count && (0...(head.count - begin.count)).contains { head[$0..<($0 + begin.count)].elementsEqual(begin) }
        }
    }
}
