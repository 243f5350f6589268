import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyPGP

extension SOPCommand {
    /// `sop sign`: detached signatures.
    public struct Sign: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "sign", abstract: "Make a detached signature over standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("as"), help: "binary or text.") var mode = "binary"
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Argument(help: "Secret key files.") var keys: [String] = []

        public init() {}

        public func run() throws {
            guard !keys.isEmpty else { throw SOPFailure(.missingArgument, "give at least one secret key") }
            guard mode == "binary" || mode == "text" else { throw SOPFailure(.unsupportedOption, "--as=\(mode)") }
            let passphrases = try keyPasswords.map(SOPIO.password)
            let keys = try SOPInputs.certificates(keys)
            let signatures = try SOPFailure.signing {
                let signers = try keys.map { try $0.unlockedSigningKey(passphrases: passphrases, now: SOPIO.now) }
                return try Signer.detached(from: SOPStreams.standardInput, signers: signers, text: mode == "text", now: SOPIO.now)
            }
            SOPIO.output(SOPText.output(signatures, armor: !noArmor, kind: .signature))
        }
    }

    /// `sop verify`: checks detached signatures over standard input.
    public struct Verify: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "verify", abstract: "Verify detached signatures over standard input.")
        @Option(name: .customLong("not-before"), help: "Ignore signatures made before this time (ISO 8601, now, or -).") var notBefore: String?
        @Option(name: .customLong("not-after"), help: "Ignore signatures made after this time (default: now).") var notAfter = "now"
        @Argument(help: "The signatures file, then certificate files.") var files: [String] = []

        public init() {}

        public func run() throws {
            guard files.count >= 2 else { throw SOPFailure(.missingArgument, "give SIGNATURES and at least one CERTS file") }
            let signatures = try SOPInputs.read(files[0])
            let certificates = try SOPInputs.certificates(Array(files.dropFirst()))
            let verifications = try SOPFailure.mapping(SOPFailure.badData) {
                try Verification.detached(signatures, input: SOPStreams.standardInput, certificates: certificates, now: SOPIO.now)
            }
            let now = SOPIO.now
            let lines = try SOPVerifications.required(verifications, notBefore: try SOPVerifications.time(notBefore, now: now),
                                                      notAfter: try SOPVerifications.time(notAfter, now: now))
            lines.forEach { print($0) }
        }
    }
}
