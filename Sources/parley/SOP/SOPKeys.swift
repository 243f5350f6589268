import ArgumentParser
import ParleyPGP

extension Parley.SOP {
    /// `sop generate-key`: an Ed25519 + Cv25519 secret key.
    struct GenerateKey: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "generate-key", abstract: "Generate a secret key.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("with-key-password"), help: "File holding a pass phrase to protect the key.") var keyPassword: String?
        @Option(help: "default (Ed25519 + Cv25519), rfc4880 (RSA-3072) or rfc9580 (v6 Ed25519 + X25519).") var profile = "default"
        @Argument(help: "User IDs.") var userIDs: [String] = []

        func run() throws {
            let chosen = try SOPProfiles.profile(profile, for: "generate-key")
            let passphrase = try keyPassword.map(SOPIO.password)
            do {
                let key = switch chosen.name {
                case "rfc4880": try KeyGenerator.generateRSA(userIDs: userIDs, bits: .bits3072, passphrase: passphrase, now: SOPIO.now)
                case "rfc9580": try KeyGenerator.generateV6(userIDs: userIDs, passphrase: passphrase, now: SOPIO.now)
                default: try KeyGenerator.generate(userIDs: userIDs, passphrase: passphrase, now: SOPIO.now)
                }
                SOPIO.output(key.packets.encoded, armor: !noArmor, kind: .privateKey)
            } catch let error as PGPError {
                throw SOPIO.fail(SOPIO.badData, error.description)
            }
        }
    }

    /// `sop extract-cert`: the certificate of a secret key.
    struct ExtractCert: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "extract-cert", abstract: "Extract a certificate from a secret key.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false

        func run() throws {
            do {
                let keys = try Certificate.readAll(SOPIO.standardInput())
                guard !keys.isEmpty else { throw SOPIO.fail(SOPIO.badData, "no key on standard input") }
                SOPIO.output(keys.flatMap { $0.publicCertificate.packets.encoded }, armor: !noArmor, kind: .publicKey)
            } catch let error as PGPError {
                throw SOPIO.fail(error)
            }
        }
    }
}
