import ArgumentParser
import ParleyPGP

extension SOPCommand {
    /// `sop change-key-password`: unlock every secret part with an old password, lock it with the new one.
    public struct ChangeKeyPassword: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "change-key-password", abstract: "Change the password protecting the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("new-key-password"), help: "File holding the new password (none: the keys come out unprotected).") var newPassword: String?
        @Option(name: .customLong("old-key-password"), help: "File holding a password that may unlock the keys.") var oldPasswords: [String] = []

        public init() {}

        public func run() throws {
            let new = try newPassword.map(SOPIO.password)
            let old = try oldPasswords.map(SOPIO.password)
            let keys = try SOPInputs.standardInput(SOPIO.standardInput(), secret: true)
            SOPIO.output(SOPText.output(try SOPKeyOperations.changePassword(keys, old: old, new: new), armor: !noArmor))
        }
    }

    /// `sop revoke-key`: a revocation certificate for each key on standard input.
    public struct RevokeKey: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "revoke-key", abstract: "Make revocation certificates for the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []

        public init() {}

        public func run() throws {
            let passphrases = try keyPasswords.map(SOPIO.password)
            let keys = try SOPInputs.standardInput(SOPIO.standardInput(), secret: true)
            SOPIO.output(SOPText.output(try SOPKeyOperations.revoke(keys, passphrases: passphrases, now: SOPIO.now), armor: !noArmor))
        }
    }

    /// `sop update-key`: merge in updates and renew self-signatures that are due (docs/PGP.md says which).
    public struct UpdateKey: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "update-key", abstract: "Renew due self-signatures of the secret keys on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Flag(name: .customLong("signing-only"), help: "Accepted: parley adds no encryption subkey anyway.") var signingOnly = false
        @Flag(name: .customLong("no-added-capabilities"), help: "Accepted: parley adds no algorithms or features anyway.") var noAddedCapabilities = false
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Option(name: .customLong("merge-certs"), help: "Certificates whose updates (certifications, user IDs, subkeys) are merged in.") var mergeCerts: [String] = []

        public init() {}

        public func run() throws {
            let passphrases = try keyPasswords.map(SOPIO.password)
            let updates = try SOPInputs.certificates(mergeCerts)
            let keys = try SOPInputs.standardInput(SOPIO.standardInput(), secret: true)
            let updated = try SOPKeyOperations.update(keys, merging: updates, passphrases: passphrases, now: SOPIO.now)
            SOPIO.output(SOPText.output(updated, armor: !noArmor))
        }
    }

    /// `sop merge-certs`: the certificates on standard input with what the named files add to them.
    public struct MergeCerts: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "merge-certs", abstract: "Merge updates from certificate files into the certificates on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Argument(help: "Certificate files with updates.") var certs: [String] = []

        public init() {}

        public func run() throws {
            let updates = try SOPInputs.certificates(certs)
            let base = try SOPInputs.standardInput(SOPIO.standardInput(), secret: false)
            SOPIO.output(SOPText.output(try SOPKeyOperations.merge(base, with: updates), armor: !noArmor))
        }
    }
}
