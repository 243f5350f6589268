import ArgumentParser
import ParleyPGP

extension Parley.SOP {
    /// `sop change-key-password`: unlock every secret part with an old password, lock it with the new one.
    struct ChangeKeyPassword: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change-key-password", abstract: "Change the password protecting the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("new-key-password"), help: "File holding the new password (none: the keys come out unprotected).") var newPassword: String?
        @Option(name: .customLong("old-key-password"), help: "File holding a password that may unlock the keys.") var oldPasswords: [String] = []

        func run() throws {
            let new = try newPassword.map(SOPIO.password)
            let old = try oldPasswords.map(SOPIO.password)
            let keys = try SOPIO.standardInputCertificates(secret: true)
            let changed = try SOPIO.maintaining {
                try keys.map { key in
                    try new.map { try key.reprotected(oldPassphrases: old, newPassphrase: $0) } ?? key.unprotected(oldPassphrases: old)
                }
            }
            SOPIO.output(changed, armor: !noArmor)
        }
    }

    /// `sop revoke-key`: a revocation certificate for each key on standard input.
    struct RevokeKey: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke-key", abstract: "Make revocation certificates for the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []

        func run() throws {
            let passphrases = try keyPasswords.map(SOPIO.password)
            let keys = try SOPIO.standardInputCertificates(secret: true)
            let revoked = try SOPIO.maintaining {
                try keys.map { try $0.revoked(by: $0.unlockedPrimaryKey(passphrases: passphrases), now: SOPIO.now) }
            }
            SOPIO.output(revoked, armor: !noArmor)
        }
    }

    /// `sop update-key`: merge in updates and renew self-signatures that are due (docs/PGP.md says which).
    struct UpdateKey: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update-key", abstract: "Renew due self-signatures of the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Flag(name: .customLong("signing-only"), help: "Accepted: parley adds no encryption subkey anyway.") var signingOnly = false
        @Flag(name: .customLong("no-added-capabilities"), help: "Accepted: parley adds no algorithms or features anyway.") var noAddedCapabilities = false
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Option(name: .customLong("merge-certs"), help: "Certificates whose updates (certifications, user IDs, subkeys) are merged in.") var mergeCerts: [String] = []

        func run() throws {
            let passphrases = try keyPasswords.map(SOPIO.password)
            let updates = try SOPIO.certificates(mergeCerts).map(\.publicCertificate)
            let keys = try SOPIO.standardInputCertificates(secret: true)
            let now = SOPIO.now
            let updated = try SOPIO.maintaining {
                try Certificate.merge(keys, with: updates).map { key in
                    guard !key.isRevoked(at: now) else { throw SOPIO.fail(SOPIO.primaryKeyBad, "\(Fingerprint.text(key.fingerprint)) is revoked") }
                    return try key.refreshed(by: key.unlockedPrimaryKey(passphrases: passphrases), now: now)
                }
            }
            SOPIO.output(updated, armor: !noArmor)
        }
    }

    /// `sop merge-certs`: the certificates on standard input with what the named files add to them.
    struct MergeCerts: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "merge-certs", abstract: "Merge updates from certificate files into the certificates on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Argument(help: "Certificate files with updates.") var certs: [String] = []

        func run() throws {
            let updates = try SOPIO.certificates(certs).map(\.publicCertificate)
            let base = try SOPIO.standardInputCertificates(secret: false)
            SOPIO.output(try SOPIO.maintaining { try Certificate.merge(base, with: updates) }, armor: !noArmor)
        }
    }
}
