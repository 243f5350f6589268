/// Why an Apple ECIES blob or a P-256 key could not be used. Descriptions never include key material.
public enum ECIESError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The blob is not shaped like Apple ECIES: too short, or its ephemeral key is not a P-256 point.
    case malformedBlob
    /// The blob did not decrypt: wrong key, wrong variant, or altered bytes (deliberately not told apart).
    case cannotDecrypt
    /// A key file could not be read as any accepted P-256 key encoding; the payload says which kind.
    case unrecognizedKey(String)
    /// The cryptographic library refused an operation that should not fail.
    case cryptoFailure
    /// The private key could not be used (a hardware key's device refused or is missing); the payload says why.
    case keyUnavailable(String)

    public var description: String {
        switch self {
        case .malformedBlob:
            "malformed ECIES data: expected a 65-byte uncompressed P-256 point, the ciphertext and a 16-byte tag"
        case .cannotDecrypt:
            "could not decrypt or authenticate (wrong key or variant, or the data was altered)"
        case .unrecognizedKey(let what):
            "unrecognised \(what)"
        case .cryptoFailure:
            "the cryptographic library failed unexpectedly"
        case .keyUnavailable(let why):
            why
        }
    }
}
