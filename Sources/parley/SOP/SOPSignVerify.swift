import ArgumentParser
import Foundation
import ParleyPGP

extension Parley.SOP {
    /// `sop sign`: detached signatures.
    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sign", abstract: "Make a detached signature over standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("as"), help: "binary or text.") var mode = "binary"
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Argument(help: "Secret key files.") var keys: [String] = []

        func run() throws {
            guard !keys.isEmpty else { throw SOPIO.fail(SOPIO.missingArgument, "give at least one secret key") }
            guard mode == "binary" || mode == "text" else { throw SOPIO.fail(SOPIO.unsupportedOption, "--as=\(mode)") }
            let passphrases = try keyPasswords.map(SOPIO.password)
            do {
                let signers = try SOPIO.certificates(keys).map { try $0.unlockedSigningKey(passphrases: passphrases, now: SOPIO.now) }
                let signatures = try Signer.detached(from: SOPIO.standardInputStream, signers: signers, text: mode == "text", now: SOPIO.now)
                SOPIO.output(signatures, armor: !noArmor, kind: .signature)
            } catch PGPError.unusableKey(let why) {
                throw SOPIO.fail(SOPIO.keyCannotSign, why)
            } catch let error as PGPError {
                throw SOPIO.fail(error)
            }
        }
    }

    /// `sop verify`: checks detached signatures over standard input.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "verify", abstract: "Verify detached signatures over standard input.")
        @Option(name: .customLong("not-before"), help: "Ignore signatures made before this time (ISO 8601, now, or -).") var notBefore: String?
        @Option(name: .customLong("not-after"), help: "Ignore signatures made after this time (default: now).") var notAfter = "now"
        @Argument(help: "The signatures file, then certificate files.") var files: [String] = []

        func run() throws {
            guard files.count >= 2 else { throw SOPIO.fail(SOPIO.missingArgument, "give SIGNATURES and at least one CERTS file") }
            let verifications: [Verification]
            do {
                verifications = try Verification.detached(SOPIO.input(files[0]), input: SOPIO.standardInputStream,
                                                          certificates: SOPIO.certificates(Array(files.dropFirst())), now: SOPIO.now)
            } catch let error as PGPError {
                throw SOPIO.fail(SOPIO.badData, error.description)
            } catch let error as PGPStreamIOError {
                throw SOPIO.fail(SOPIO.badData, error.description)
            }
            let inTime = SOPIO.within(verifications, notBefore: try SOPIO.time(notBefore), notAfter: try SOPIO.time(notAfter))
            let lines = inTime.compactMap(SOPIO.line)
            guard !lines.isEmpty else { throw SOPIO.fail(SOPIO.noSignature, "no valid signature") }
            lines.forEach { print($0) }
        }
    }
}
