/// Everything that can go wrong reading or writing OpenPGP data; descriptions never contain secrets.
public enum PGPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The ASCII armor is malformed (missing lines, bad base64, bad CRC-24).
    case badArmor(String)
    /// The packet stream is malformed: bad header, length, or a packet that ends early.
    case malformed(String)
    /// The data is well formed but uses an algorithm or version Parley does not implement.
    case unsupported(String)
    /// A signature did not verify.
    case badSignature(String)
    /// The key is protected and no (or the wrong) pass phrase was given.
    case needsPassphrase
    /// The pass phrase did not unlock the key (its checksum did not match).
    case wrongPassphrase
    /// None of the given keys or passwords could decrypt the message.
    case noMatchingKey
    /// The encrypted data has no modification detection code: it could have been altered.
    case missingMDC
    /// The modification detection code did not match: the message was altered or truncated.
    case badMDC
    /// The encrypted message ends before its data is complete.
    case truncated
    /// A key or message cannot be used for the requested operation (no encryption subkey, expired, revoked).
    case unusableKey(String)
    /// Decryption was asked for, but the message is not encrypted (a bare literal or signed message).
    case notEncrypted
    /// Something follows the end of the one OpenPGP message (more packets, stray bytes, a second message).
    case trailingData

    /// A human-readable summary (never includes key material, plaintext or passwords).
    public var description: String {
        switch self {
        case .badArmor(let why): "bad ASCII armor: \(why)"
        case .malformed(let why): "malformed OpenPGP data: \(why)"
        case .unsupported(let what): "unsupported algorithm or feature: \(what)"
        case .badSignature(let why): "bad signature: \(why)"
        case .needsPassphrase: "the secret key is protected by a pass phrase"
        case .wrongPassphrase: "wrong pass phrase for the secret key"
        case .noMatchingKey: "no key or password given can decrypt this message"
        case .missingMDC: "the message has no integrity protection (no MDC); refusing to decrypt"
        case .badMDC: "the message integrity check (MDC) failed: it was altered"
        case .truncated: "the encrypted message is truncated"
        case .unusableKey(let why): "key cannot be used: \(why)"
        case .notEncrypted: "the message is not encrypted"
        case .trailingData: "something follows the end of the OpenPGP message (more data, or a second message); nothing was decrypted"
        }
    }
}
