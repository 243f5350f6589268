/// Why a key could not be revoked, certified with, or a user ID could not be certified or validated.
/// Kept apart from `PGPError`, whose cases are about reading and writing messages.
public enum KeyMaintenanceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key is revoked, expired, or its flags do not allow certifying.
    case keyCannotCertify(String)
    /// The certificate carries no correctly bound user ID that matches.
    case userIDNotFound(String)

    /// A human-readable summary (names user IDs, never key material or passwords).
    public var description: String {
        switch self {
        case .keyCannotCertify(let why): "the key cannot certify: \(why)"
        case .userIDNotFound(let userID): "the certificate has no self-signed user ID \"\(userID)\""
        }
    }
}
