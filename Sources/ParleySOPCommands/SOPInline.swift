import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyPGP

extension SOPCommand {
    /// `sop inline-sign`: a signed message, or cleartext-signed text.
    public struct InlineSign: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "inline-sign", abstract: "Make an inline-signed message from standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output (not with --as=clearsigned).") var noArmor = false
        @Option(name: .customLong("as"), help: "binary, text or clearsigned.") var mode = "binary"
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Argument(help: "Secret key files.") var keys: [String] = []

        public init() {}

        public func run() throws {
            guard !keys.isEmpty else { throw SOPFailure(.missingArgument, "give at least one secret key") }
            guard ["binary", "text", "clearsigned"].contains(mode) else { throw SOPFailure(.unsupportedOption, "--as=\(mode)") }
            let passphrases = try keyPasswords.map(SOPIO.password)
            let keys = try SOPInputs.certificates(keys)
            try SOPFailure.signing {
                let signers = try keys.map { try $0.unlockedSigningKey(passphrases: passphrases, now: SOPIO.now) }
                if mode == "clearsigned" {
                    // Spooled: input that turns out not to be UTF-8 leaves nothing on stdout.
                    try SOPStreams.checked { output in
                        do {
                            try CleartextSignature.sign(from: SOPStreams.standardInput, to: output, signers: signers, now: SOPIO.now)
                        } catch let error as CleartextSignature.NotText {
                            throw SOPFailure(.expectedText, error.description)
                        }
                    }
                } else {
                    try SOPStreams.direct {
                        try Signer.inline(from: SOPStreams.standardInput, to: $0, signers: signers, text: mode == "text",
                                          armor: !noArmor, now: SOPIO.now)
                    }
                }
            }
        }
    }

    /// `sop inline-verify`: prints the signed data when at least one signature is good.
    public struct InlineVerify: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "inline-verify", abstract: "Verify an inline-signed message.")
        @Option(name: .customLong("verifications-out"), help: "File to write verification lines to.") var verificationsOut: String?
        @Argument(help: "Certificate files.") var certs: [String] = []

        public init() {}

        public func run() throws {
            guard !certs.isEmpty else { throw SOPFailure(.missingArgument, "give at least one certificate") }
            let certificates = try SOPInputs.certificates(certs)
            // Streamed into a private scratch file; the signed data reaches stdout only when a signature is good.
            let spool = try PrivateSpool()
            let verifications = try SOPFailure.mapping(SOPFailure.badData) {
                try Verification.inline(from: SOPStreams.standardInput, to: spool.output, certificates: certificates,
                                        now: SOPIO.now, decompressionLimit: Int.max)
            }
            let lines = try SOPVerifications.required(verifications)
            if let verificationsOut {
                try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: verificationsOut))
            }
            try spool.release()
        }
    }

    /// `sop inline-detach`: splits an inline-signed message into data and detached signatures.
    public struct InlineDetach: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "inline-detach", abstract: "Split signatures from an inline-signed message.")
        @Flag(name: .customLong("no-armor"), help: "Binary signatures.") var noArmor = false
        @Option(name: .customLong("signatures-out"), help: "File to write the signatures to.") var signaturesOut: String?

        public init() {}

        public func run() throws {
            guard let signaturesOut else { throw SOPFailure(.missingArgument, "--signatures-out is required") }
            // The data streams into a private spool and reaches stdout, with the signatures in their file,
            // only once the whole message was read: a cut or garbled message leaves neither.
            _ = try SOPStreams.checked({ output in
                try Verification.inline(from: SOPStreams.standardInput, to: output, certificates: [], now: SOPIO.now,
                                        decompressionLimit: Int.max)
            }, check: { verifications in
                guard !verifications.isEmpty else { throw SOPFailure(.badData, "the message carries no signature") }
                let signatures = verifications.map { Packet(tagNumber: 2, body: $0.signature.body) }.encoded
                try Data(SOPText.output(signatures, armor: !noArmor, kind: .signature)).write(to: URL(fileURLWithPath: signaturesOut))
            }, classify: { error in
                error == .noMatchingKey ? SOPFailure(.badData, "the message is encrypted; use decrypt") : SOPFailure.badData(error)
            })
        }
    }
}
