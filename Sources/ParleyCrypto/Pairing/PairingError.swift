/// Why a pairing code, box or payload was refused. Never carries key material or plaintext.
public enum PairingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a 20-character pairing code, or its check character does not match (a typo).
    case notAPairingCode
    /// A sealed box shorter than version, nonce and tag.
    case corrupt
    /// A sealed box of a version this build does not read.
    case unsupportedVersion
    /// Wrong code, a swapped key or tampering: deliberately one opaque case.
    case cannotDecrypt
    /// The keys payload is not the documented JSON.
    case notAPairingPayload
    /// The ephemeral public key is not usable for X25519.
    case invalidPublicKey

    public var description: String {
        switch self {
        case .notAPairingCode: "that is not a pairing code (20 letters and digits, e.g. 4V2K-J8QZ-…); check for a typo"
        case .corrupt: "the pairing data is damaged"
        case .unsupportedVersion: "the other device uses a newer pairing version; update Parley"
        case .cannotDecrypt: "the pairing could not be decrypted: the code was wrong or the data was altered"
        case .notAPairingPayload: "the other device sent something that is not a pairing payload"
        case .invalidPublicKey: "the other device's pairing key is invalid"
        }
    }
}
