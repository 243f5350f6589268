/// Why a fingerprint, safety number or verification code could not be made or read.
public enum VerificationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The identity key is not a usable Ed25519 (or `0x05 || X25519`) public key.
    case invalidIdentityKey
    /// The QR payload's version byte is not one this build understands.
    case unsupportedVersion(UInt8)
    /// The QR payload is shorter or longer than its own length fields say.
    case malformedPayload
    /// The account id in the QR payload is empty, too long or not UTF-8.
    case invalidAccountID
    /// The scanned text is not a Parley verification code (another app's QR code, or damaged text).
    case notAVerificationCode

    public var description: String {
        switch self {
        case .invalidIdentityKey:
            "the identity key is not a valid public key"
        case .unsupportedVersion(let version):
            "the verification code has version \(version), which this version of Parley cannot read (update Parley)"
        case .malformedPayload:
            "the verification code is damaged or incomplete (scan it again)"
        case .invalidAccountID:
            "the verification code holds an invalid account id (scan it again)"
        case .notAVerificationCode:
            "this QR code is not a Parley verification code; scan the code 'parley verify EMAIL --qr' shows"
        }
    }
}
