import ArgumentParser
import ParleyPGP

extension SOPCommand {
    /// `sop certify-userid`: certifications by KEYS over user IDs of the certificates on standard input.
    public struct CertifyUserID: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "certify-userid", abstract: "Certify user IDs of the certificates on standard input.")
        @Flag(name: .customLong("no-armor"), help: "Binary output.") var noArmor = false
        @Option(name: .customLong("userid"), help: "A user ID to certify (repeatable).") var userIDs: [String] = []
        @Option(name: .customLong("with-key-password"), help: "File holding a key pass phrase.") var keyPasswords: [String] = []
        @Flag(name: .customLong("no-require-self-sig"), help: "Certify a user ID even when the certificate does not bind it itself.") var noRequireSelfSig = false
        @Argument(help: "Secret key files of the certifiers.") var keys: [String] = []

        public init() {}

        public func run() throws {
            guard !userIDs.isEmpty else { throw SOPFailure(.missingArgument, "give at least one --userid") }
            guard !keys.isEmpty else { throw SOPFailure(.missingArgument, "give at least one secret key") }
            let passphrases = try keyPasswords.map(SOPIO.password)
            let certifiers = try SOPInputs.secretKeys(keys)
            let certificates = try SOPInputs.standardInput(SOPIO.standardInput(), secret: false)
            let certified = try SOPKeyOperations.certify(certificates, userIDs: userIDs, by: certifiers, passphrases: passphrases,
                                                         requireSelfSignature: !noRequireSelfSig, now: SOPIO.now)
            SOPIO.output(SOPText.output(certified, armor: !noArmor))
        }
    }

    /// `sop validate-userid`: exit 0 when every certificate on standard input has the user ID certified
    /// by one of the authorities, else 107.
    public struct ValidateUserID: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "validate-userid", abstract: "Check that authorities certified a user ID on the certificates on standard input.")
        @Flag(name: .customLong("addr-spec-only"), help: "USERID is an e-mail address, compared with each user ID's address.") var addrSpecOnly = false
        @Option(name: .customLong("validate-at"), help: "Judge validity at this time (ISO 8601 or now; default now).") var validateAt: String?
        @Argument(help: "The user ID.") var userID: String
        @Argument(help: "Authority certificate files.") var authorities: [String] = []

        public init() {}

        public func run() throws {
            guard !authorities.isEmpty else { throw SOPFailure(.missingArgument, "give at least one authority certificate") }
            let now = SOPIO.now
            let time = try SOPVerifications.time(validateAt, now: now) ?? now
            let authorityCertificates = try SOPInputs.certificates(authorities)
            let subjects = try SOPInputs.standardInput(SOPIO.standardInput(), secret: false)
            try SOPKeyOperations.validateUserID(userID, subjects: subjects, authorities: authorityCertificates, addrSpecOnly: addrSpecOnly, at: time)
        }
    }
}
