import ArgumentParser
import ParleyPGP

extension SOPCommand {
    /// `sop generate-key`: an Ed25519 + Cv25519 secret key.
    public struct GenerateKey: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "generate-key", abstract: "Generate a secret key.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("with-key-password"), help: "File holding a pass phrase to protect the key.") var keyPassword: String?
        @Option(help: "default (Ed25519 + Cv25519), rfc4880 (RSA-3072) or rfc9580 (v6 Ed25519 + X25519).") var profile = "default"
        @Argument(help: "User IDs.") var userIDs: [String] = []

        public init() {}

        public func run() throws {
            // The profile is checked before the pass phrase is read: an unknown one is 89 whatever else is wrong.
            _ = try SOPProfiles.profile(profile, for: "generate-key")
            let passphrase = try keyPassword.map(SOPIO.password)
            let key = try SOPKeyOperations.generateKey(profile: profile, userIDs: userIDs, passphrase: passphrase, now: SOPIO.now)
            SOPIO.output(SOPText.output(key.packets.encoded, armor: !noArmor, kind: .privateKey))
        }
    }

    /// `sop extract-cert`: the certificate of a secret key.
    public struct ExtractCert: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "extract-cert", abstract: "Extract a certificate from a secret key.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false

        public init() {}

        public func run() throws {
            let certificates = try SOPKeyOperations.extractCertificates(SOPIO.standardInput())
            SOPIO.output(SOPText.output(certificates, armor: !noArmor, kind: .publicKey))
        }
    }
}
