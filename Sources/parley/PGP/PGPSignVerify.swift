import ArgumentParser
import Foundation
import ParleyPGP
import ParleyTerminal

extension Parley.PGP {
    /// `parley pgp sign`: a detached, armored signature over a file of any size.
    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign", abstract: "Make a detached signature over a file (armored unless --binary).")
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

    /// `parley pgp verify`: a detached signature over a file, or an inline-signed or cleartext-signed
    /// message, against the keyring's certificates.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a signed message or a detached signature; exits 1 unless a signature by a known key is good.",
            discussion: """
                With one file, SIGNED is an inline-signed message (binary or armored, as `gpg --sign` makes it) or a \
                cleartext-signed text (`gpg --clearsign`); -o writes its signed content, and only when a signature is \
                good. With two files, SIGNED is a detached signature (.asc or .sig) over FILE.
                """)
        @OptionGroup var options: PGPOptions
        @Option(help: "A signer's certificate file, besides the keyring (repeatable).") var cert: [String] = []
        @Option(name: .shortAndLong, help: "Write the signed content of an inline-signed message here ('-' for standard output).")
        var output: String?
        @Flag(help: "Replace the output file if it exists.") var force = false
        @Argument(help: "The signed message, or the detached signature ('-' for standard input).") var signed: String
        @Argument(help: "The file a detached signature signs ('-' for standard input).") var file: String?

        func validate() throws {
            if file != nil, output != nil {
                throw ValidationError("-o is for inline-signed messages; the content of a detached signature is FILE itself")
            }
            if signed == "-", file == "-" { throw ValidationError("only one of SIGNED and FILE can be standard input") }
        }

        func run() async throws {
            let keyring = try options.openKeyring()
            var certificates = try keyring.certificates()
            certificates += try cert.flatMap { file in try PGPFailure.run { try Certificate.readAll(PGPIO.read(file)) } }
            guard let file else { return try verifyInline(certificates: certificates) }
            let signatureBytes = try PGPIO.read(signed)
            let verifications = try PGPIO.withInput(file) { source in
                try PGPFailure.run {
                    try Verification.detached(signatureBytes, input: source, certificates: certificates, now: PGPFailure.now)
                }
            }
            guard PGPIO.report(verifications, certificates: certificates) else { throw ExitCode(1) }
        }

        /// Streams the message's content to -o (or nowhere) through the signature hashes; the output is
        /// released only when a signature is good, so unverified content never lands under its name.
        private func verifyInline(certificates: [Certificate]) throws {
            let check = { (sink: PGPOutput) throws in
                try PGPIO.withInput(signed) { source in
                    let verifications = try PGPFailure.run {
                        do {
                            return try Verification.inline(from: source, to: sink, certificates: certificates, now: PGPFailure.now,
                                                           decompressionLimit: Int.max)  // streamed, so size is no memory risk
                        } catch PGPError.noMatchingKey {
                            throw CommandFailure("\(signed) is encrypted: `parley pgp decrypt` decrypts it and checks its signatures")
                        } catch PGPError.truncated {
                            throw CommandFailure("\(signed) is cut short: its data ends early. Ask the sender for a fresh copy")
                        }
                    }
                    guard !verifications.isEmpty else { throw CommandFailure("\(signed) holds no signature: nothing to verify") }
                    guard PGPIO.report(verifications, certificates: certificates) else { throw ExitCode(1) }
                }
            }
            guard let output else { return try check(PGPIO.Discard()) }
            try PGPIO.withOutput(output, replace: force, mode: 0o600, check)
            if output != "-" { PGPIO.eprint("Signed content written to \(output).") }
        }
    }
}
