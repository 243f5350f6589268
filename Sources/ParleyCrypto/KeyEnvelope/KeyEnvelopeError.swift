/// Why a key envelope could not be made or opened. Descriptions never include secrets.
public enum KeyEnvelopeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The password did not open the envelope (or the envelope was altered after sealing).
    case wrongPassword
    /// The bytes are not an ECP1 envelope: wrong magic, truncated, or impossible header values.
    case corruptEnvelope
    /// The requested PBKDF2 iteration count is outside the accepted range.
    case iterationsOutOfRange
    /// The secret is empty or larger than an envelope may hold.
    case secretSizeOutOfRange
    /// The cryptographic library refused an operation that should not fail.
    case cryptoFailure

    public var description: String {
        switch self {
        case .wrongPassword:
            "wrong password: the key envelope did not open (check the password; if it is right, the envelope was altered)"
        case .corruptEnvelope:
            "corrupt key envelope: the data is not a complete ECP1 envelope (restore it from a backup)"
        case .iterationsOutOfRange:
            "PBKDF2 iteration count must be between \(KeyEnvelope.minimumSealIterations) and \(KeyEnvelope.maximumIterations)"
        case .secretSizeOutOfRange:
            "a key envelope holds between 1 byte and \(KeyEnvelope.maximumSecretLength) bytes"
        case .cryptoFailure:
            "the cryptographic library failed unexpectedly"
        }
    }
}
