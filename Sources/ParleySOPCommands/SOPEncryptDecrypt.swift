import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyPGP

extension SOPCommand {
    /// `sop encrypt`.
    public struct Encrypt: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "encrypt", abstract: "Encrypt standard input to certificates and/or passwords.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("as"), help: "binary or text.") var mode = "binary"
        @Option(help: "rfc4880 or rfc9580 (without it: as each recipient's key calls for; see list-profiles).") var profile = "default"
        @Option(name: .customLong("with-password"), help: "File holding a password.") var passwords: [String] = []
        @Option(name: .customLong("sign-with"), help: "Secret key to sign with.") var signWith: [String] = []
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Argument(help: "Certificate files.") var certs: [String] = []

        public init() {}

        public func run() throws {
            guard !certs.isEmpty || !passwords.isEmpty else { throw SOPFailure(.missingArgument, "give certificates or --with-password") }
            guard mode == "binary" || mode == "text" else { throw SOPFailure(.unsupportedOption, "--as=\(mode)") }
            var encryptor = Encryptor(now: SOPIO.now)
            encryptor.profile = try SOPProfiles.encryption(profile)
            encryptor.passwords = try passwords.map(SOPIO.password)
            encryptor.recipients = try SOPInputs.certificates(certs)
            encryptor.format = mode == "text" ? 0x75 : 0x62
            let passphrases = try keyPasswords.map(SOPIO.password)
            let signers = try SOPInputs.certificates(signWith)
            try SOPStreams.direct { output in
                encryptor.signers = try signers.map { try $0.unlockedSigningKey(passphrases: passphrases, now: SOPIO.now) }
                try encryptor.encrypt(from: SOPStreams.standardInput, to: output, armor: !noArmor)
            }
        }
    }

    /// `sop decrypt`.
    public struct Decrypt: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "decrypt", abstract: "Decrypt standard input with secret keys and/or passwords.")
        @Option(name: .customLong("with-password"), help: "File holding a password.") var passwords: [String] = []
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Option(name: .customLong("with-session-key"), help: "File holding a session key (ALGO:HEX).") var sessionKeys: [String] = []
        @Option(name: .customLong("verify-with"), help: "Certificate to verify signatures with.") var verifyWith: [String] = []
        @Option(name: .customLong("verifications-out"), help: "File to write verification lines to.") var verificationsOut: String?
        @Option(name: .customLong("session-key-out"), help: "File to write the session key to.") var sessionKeyOut: String?
        @Argument(help: "Secret key files.") var keys: [String] = []

        public init() {}

        public func run() throws {
            guard !keys.isEmpty || !passwords.isEmpty || !sessionKeys.isEmpty else {
                throw SOPFailure(.missingArgument, "give secret keys, --with-password or --with-session-key")
            }
            var decryptor = Decryptor(now: SOPIO.now)
            decryptor.sessionKeys = try SOPFailure.mapping(SOPFailure.badData) {
                try sessionKeys.map { try SessionKey(sopString: String(decoding: SOPInputs.read($0), as: UTF8.self)) }
            }
            decryptor.keys = try SOPInputs.certificates(keys)
            decryptor.passwords = try passwords.map(SOPIO.password)
            decryptor.keyPassphrases = try keyPasswords.map(SOPIO.password)
            decryptor.verifiers = try SOPInputs.certificates(verifyWith)
            // Streamed to disk, so the size of what compressed data expands to is no memory risk.
            decryptor.decompressionLimit = Int.max
            // The plaintext is held in a private scratch file until the MDC at the end matched.
            _ = try SOPStreams.checked({ try decryptor.decrypt(from: SOPStreams.standardInput, to: $0) }, check: { result in
                guard let sessionKey = result.sessionKey else { throw SOPFailure(.cannotDecrypt, "the message is not encrypted") }
                if let sessionKeyOut {
                    try Data((sessionKey.sopString + "\n").utf8).write(to: URL(fileURLWithPath: sessionKeyOut))
                }
                if let verificationsOut {
                    try Data(SOPVerifications.file(result.verifications)).write(to: URL(fileURLWithPath: verificationsOut))
                }
            })
        }
    }
}
