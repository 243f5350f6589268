import ArgumentParser
import Foundation
import ParleyPGP

extension Parley.PGP {
    /// `parley pgp sign`: a detached, armored signature over a file of any size.
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a detached signature over a file (armored unless --binary).")
        @OptionGroup var options: PGPOptions
        @Option(name: .shortAndLong, help: "Your secret key in the keyring: fingerprint, key ID or part of a user ID.") var key: String
        @Flag(help: "A text signature (line endings canonicalized), for text files.") var text = false
        @Flag(help: "Binary output instead of ASCII armor.") var binary = false
        @Option(name: .shortAndLong, help: "Signature file (default: the input with .asc, or standard output for '-').") var output: String?
        @Argument(help: "The file to sign ('-' for standard input).") var input: String

        func run() async throws {
            let keyring = try options.openKeyring()
            let now = PGPFailure.now
            let secret = try keyring.one(key, in: keyring.secretKeys())
            let passphrase = try options.passphrase()
            let signer = try PGPFailure.run { try secret.unlockedSigningKey(passphrases: [passphrase], now: now) }
            let signature = try PGPIO.withInput(input) { source in
                try PGPFailure.run { try Signer.detached(from: source, signers: [signer], text: text, now: now) }
            }
            let destination = output ?? (input == "-" ? "-" : input + (binary ? ".sig" : ".asc"))
            try PGPIO.write(binary ? signature : Array(Armor.encode(signature, as: .signature).utf8), to: destination)
            if destination != "-" { PGPIO.eprint("Signed: \(destination)") }
        }
    }

    /// `parley pgp verify`: a detached signature over a file, against the keyring's certificates.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a detached signature over a file; exits 1 unless a signature by a known key is good.")
        @OptionGroup var options: PGPOptions
        @Option(help: "A signer's certificate file, besides the keyring (repeatable).") var cert: [String] = []
        @Argument(help: "The signature file (.asc or .sig).") var signature: String
        @Argument(help: "The signed file ('-' for standard input).") var input: String

        func run() async throws {
            let keyring = try options.openKeyring()
            var certificates = try keyring.certificates()
            certificates += try cert.flatMap { file in try PGPFailure.run { try Certificate.readAll(PGPIO.read(file)) } }
            let signatureBytes = try PGPIO.read(signature)
            let verifications = try PGPIO.withInput(input) { source in
                try PGPFailure.run {
                    try Verification.detached(signatureBytes, input: source, certificates: certificates, now: PGPFailure.now)
                }
            }
            guard PGPIO.report(verifications, certificates: certificates) else { throw ExitCode(1) }
        }
    }
}
