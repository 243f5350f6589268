/// Why a location value, key, link or file could not be read.
///
/// Descriptions name the field that is wrong and never contain key bytes or positions.
public enum LocationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A key is not valid base64 or has a length the format does not use.
    case invalidKey(String)
    /// An encrypted value is not shaped like the format (base64, lengths, version prefix).
    case malformed(String)
    /// The value does not decrypt or authenticate with this key (or was altered).
    case couldNotDecrypt
    /// The decrypted text is not the number or waypoint the format promises.
    case invalidPlaintext(String)
    /// A coordinate or other value is outside what the format allows.
    case outOfRange(String)
    /// A share link could not be read.
    case invalidLink(String)
    /// A GPX document could not be read.
    case invalidGPX(String)

    /// A message for people that never contains key material or positions.
    public var description: String {
        switch self {
        case .invalidKey(let why): "invalid location key: \(why)"
        case .malformed(let why): "malformed encrypted location: \(why)"
        case .couldNotDecrypt: "could not decrypt or authenticate the location (wrong key, or it was altered)"
        case .invalidPlaintext(let why): "decrypted location is not valid: \(why)"
        case .outOfRange(let why): "location value out of range: \(why)"
        case .invalidLink(let why): "invalid location link: \(why)"
        case .invalidGPX(let why): "invalid GPX: \(why)"
        }
    }
}
