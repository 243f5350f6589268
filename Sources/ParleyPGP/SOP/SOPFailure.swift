/// Why a Stateless OpenPGP operation (draft-dkg-openpgp-stateless-cli) failed: one of SOP's error kinds and a
/// message for the user. The command line turns the kind into the draft's exit code (§7).
public struct SOPFailure: Error, Equatable, CustomStringConvertible, Sendable {
    /// SOP's error kinds, each an exit code of the draft.
    public enum Kind: Equatable, CaseIterable, Sendable {
        /// No acceptable signature was found (3).
        case noSignature
        /// A certificate cannot be encrypted to (17).
        case certCannotEncrypt
        /// A required argument is missing (19).
        case missingArgument
        /// The message could not be decrypted, or failed its integrity check (29).
        case cannotDecrypt
        /// An option or its value is not supported (37).
        case unsupportedOption
        /// The input is not what it should be (41).
        case badData
        /// Text was expected and the input is not UTF-8 text (53).
        case expectedText
        /// A named input cannot be read (61).
        case missingInput
        /// A secret key is locked and no pass phrase given unlocks it (67).
        case keyIsProtected
        /// The subcommand is not supported (69).
        case unsupportedSubcommand
        /// A key cannot sign (79).
        case keyCannotSign
        /// The profile is not offered (89).
        case unsupportedProfile
        /// The primary key is revoked or otherwise unusable (103).
        case primaryKeyBad
        /// No matching certified user ID (107).
        case certUserIDNoMatch
        /// A key cannot certify (109).
        case keyCannotCertify
    }

    /// Which of SOP's errors this is.
    public let kind: Kind
    /// What went wrong, for the user (never a key, a pass phrase or plaintext).
    public let message: String

    /// The message.
    public var description: String { message }

    /// A failure of `kind` that says `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// How SOP classifies an OpenPGP error of encrypting, decrypting or reading keys: a locked key is 67,
    /// what cannot be decrypted or was cut 29, a key unfit to encrypt to 17, everything else bad data (41).
    public init(_ error: PGPError) {
        switch error {
        case .needsPassphrase, .wrongPassphrase: self.init(.keyIsProtected, error.description)
        case .noMatchingKey, .missingMDC, .badMDC, .truncated, .notEncrypted: self.init(.cannotDecrypt, error.description)
        case .unusableKey: self.init(.certCannotEncrypt, error.description)
        default: self.init(.badData, error.description)
        }
    }

    /// Any OpenPGP error as bad data (41): for operations that only read packets or armor.
    public static func badData(_ error: PGPError) -> SOPFailure { SOPFailure(.badData, error.description) }

    /// Runs `body`: a `SOPFailure` passes, an OpenPGP error becomes one by `classify`, a failed read or
    /// write of a stream is bad data; other errors pass unchanged.
    public static func mapping<T>(_ classify: (PGPError) -> SOPFailure = { SOPFailure($0) }, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PGPError {
            throw classify(error)
        } catch let error as PGPStreamIOError {
            throw SOPFailure(.badData, error.description)
        }
    }

    /// Runs `body` for signing: a key unfit to sign is 79, other OpenPGP errors as `init(_:)` classifies them.
    public static func signing<T>(_ body: () throws -> T) throws -> T {
        try mapping({ error in
            if case .unusableKey(let why) = error { return SOPFailure(.keyCannotSign, why) }
            return SOPFailure(error)
        }, body)
    }

    /// Runs `body` for key maintenance: a pass phrase missing or wrong is 67, a key that cannot certify 109,
    /// a user ID not bound 107, anything else unreadable 41.
    public static func maintaining<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KeyMaintenanceError {
            switch error {
            case .keyCannotCertify: throw SOPFailure(.keyCannotCertify, error.description)
            case .userIDNotFound: throw SOPFailure(.certUserIDNoMatch, error.description)
            }
        } catch let error as PGPError {
            switch error {
            case .needsPassphrase, .wrongPassphrase: throw SOPFailure(.keyIsProtected, error.description)
            default: throw SOPFailure(.badData, error.description)
            }
        }
    }
}
