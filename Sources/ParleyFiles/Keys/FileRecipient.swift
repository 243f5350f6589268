import Crypto

/// Someone a file is sealed to: a public key of one of the v1 kinds, or a passphrase.
public enum FileRecipient: Sendable {
    /// A P-256 key (FileLock, Secure Enclave); the file key is wrapped with Apple ECIES.
    case p256(P256.KeyAgreement.PublicKey)
    /// An X25519 key.
    case x25519(Curve25519.KeyAgreement.PublicKey)
    /// An X-Wing post-quantum hybrid key.
    case xwing(XWingMLKEM768X25519.PublicKey)
    /// A passphrase, stretched with scrypt at 2^logN.
    case passphrase(String, logN: UInt8)

    /// The work factor `seal` uses for passphrases unless told otherwise (as age: 2^18, 256 MiB).
    public static let defaultLogN: UInt8 = 18
    /// The lowest work factor `seal` accepts.
    public static let minimumSealLogN: UInt8 = 14
    /// The range of work factors `open` accepts; above it a hostile file could exhaust memory.
    public static let openLogNRange: ClosedRange<UInt8> = 10...20

    /// The stanza kind this recipient produces.
    public var kind: StanzaKind {
        switch self {
        case .p256: .p256
        case .x25519: .x25519
        case .xwing: .xwing
        case .passphrase: .passphrase
        }
    }
}

/// A secret that can open files: a private key of one of the v1 kinds, or a passphrase.
public enum FileIdentity: Sendable {
    /// A P-256 private key.
    case p256(P256.KeyAgreement.PrivateKey)
    /// An X25519 private key.
    case x25519(Curve25519.KeyAgreement.PrivateKey)
    /// An X-Wing private key.
    case xwing(XWingMLKEM768X25519.PrivateKey)
    /// A passphrase.
    case passphrase(String)

    /// The stanza kind this identity can unwrap.
    public var kind: StanzaKind {
        switch self {
        case .p256: .p256
        case .x25519: .x25519
        case .xwing: .xwing
        case .passphrase: .passphrase
        }
    }
}
