import ArgumentParser
import Foundation
import ParleyPGP

extension Parley.SOP {
    /// `sop inline-sign`: a signed message, or cleartext-signed text.
    struct InlineSign: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "inline-sign", abstract: "Make an inline-signed message from standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output (not with --as=clearsigned).") var noArmor = false
        @Option(name: .customLong("as"), help: "binary, text or clearsigned.") var mode = "binary"
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Argument(help: "Secret key files.") var keys: [String] = []

        func run() throws {
            guard !keys.isEmpty else { throw SOPIO.fail(SOPIO.missingArgument, "give at least one secret key") }
            guard ["binary", "text", "clearsigned"].contains(mode) else { throw SOPIO.fail(SOPIO.unsupportedOption, "--as=\(mode)") }
            let passphrases = try keyPasswords.map(SOPIO.password)
            do {
                let signers = try SOPIO.certificates(keys).map { try $0.unlockedSigningKey(passphrases: passphrases, now: SOPIO.now) }
                if mode == "clearsigned" {
                    // Spooled: input that turns out not to be UTF-8 leaves nothing on stdout.
                    try SOPIO.streamChecked { output in
                        do {
                            try CleartextSignature.sign(from: SOPIO.standardInputStream, to: output, signers: signers, now: SOPIO.now)
                        } catch let error as CleartextSignature.NotText {
                            throw SOPIO.fail(SOPIO.expectedText, error.description)
                        }
                    }
                } else {
                    try SOPIO.streamOut {
                        try Signer.inline(from: SOPIO.standardInputStream, to: $0, signers: signers, text: mode == "text",
                                          armor: !noArmor, now: SOPIO.now)
                    }
                }
            } catch PGPError.unusableKey(let why) {
                throw SOPIO.fail(SOPIO.keyCannotSign, why)
            } catch let error as PGPError {
                throw SOPIO.fail(error)
            }
        }
    }

    /// `sop inline-verify`: prints the signed data when at least one signature is good.
    struct InlineVerify: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "inline-verify", abstract: "Verify an inline-signed message.")
        @Option(name: .customLong("verifications-out"), help: "File to write verification lines to.") var verificationsOut: String?
        @Argument(help: "Certificate files.") var certs: [String] = []

        func run() throws {
            guard !certs.isEmpty else { throw SOPIO.fail(SOPIO.missingArgument, "give at least one certificate") }
            let certificates = try SOPIO.certificates(certs)
            // Streamed into a private scratch file; the signed data reaches stdout only when a signature is good.
            let spool = try PrivateSpool()
            let verifications: [Verification]
            do {
                verifications = try Verification.inline(from: SOPIO.standardInputStream, to: spool.output, certificates: certificates,
                                                        now: SOPIO.now, decompressionLimit: Int.max)
            } catch let error as PGPError {
                throw SOPIO.fail(SOPIO.badData, error.description)
            } catch let error as PGPStreamIOError {
                throw SOPIO.fail(SOPIO.badData, error.description)
            }
            let lines = verifications.compactMap(SOPIO.line)
            guard !lines.isEmpty else { throw SOPIO.fail(SOPIO.noSignature, "no valid signature") }
            if let verificationsOut {
                try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: verificationsOut))
            }
            try spool.release()
        }
    }

    /// `sop inline-detach`: splits an inline-signed message into data and detached signatures.
    struct InlineDetach: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "inline-detach", abstract: "Split signatures from an inline-signed message.")
        @Flag(name: .customLong("no-armor"), help: "Binary signatures.") var noArmor = false
        @Option(name: .customLong("signatures-out"), help: "File to write the signatures to.") var signaturesOut: String?

        func run() throws {
            guard let signaturesOut else { throw SOPIO.fail(SOPIO.missingArgument, "--signatures-out is required") }
            // The data streams into a private spool and reaches stdout, with the signatures in their file,
            // only once the whole message was read: a cut or garbled message leaves neither.
            _ = try SOPIO.streamChecked({ output in
                try Verification.inline(from: SOPIO.standardInputStream, to: output, certificates: [], now: SOPIO.now,
                                        decompressionLimit: Int.max)
            }, check: { verifications in
                guard !verifications.isEmpty else { throw SOPIO.fail(SOPIO.badData, "the message carries no signature") }
                let signatures = verifications.map { Packet(tagNumber: 2, body: $0.signature.body) }.encoded
                let out = noArmor ? signatures : Array(Armor.encode(signatures, as: .signature).utf8)
                try Data(out).write(to: URL(fileURLWithPath: signaturesOut))
            }, failure: { error in
                error == .noMatchingKey ? SOPIO.fail(SOPIO.badData, "the message is encrypted; use decrypt") : SOPIO.asBadData(error)
            })
        }
    }
}
