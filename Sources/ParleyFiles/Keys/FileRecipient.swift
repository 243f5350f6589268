import Crypto
import ParleyCrypto

/// Someone a file is sealed to: a public key of one of the v1 kinds, or a passphrase.
public enum FileRecipient: Sendable {
    /// A P-256 key (FileLock, Secure Enclave); the file key is wrapped with Apple ECIES.
    case p256(P256.KeyAgreement.PublicKey)
    /// An X25519 key.
    case x25519(Curve25519.KeyAgreement.PublicKey)
    /// An X-Wing post-quantum hybrid key.
    case xwing(XWingMLKEM768X25519.PublicKey)
    /// A passphrase, stretched with scrypt at N = 2^logN in `lanes` lanes (docs/FORMATS.md §10).
    case passphrase(String, logN: UInt8, lanes: UInt8)

    /// The scrypt memory factor `seal` uses unless told otherwise: 2^14, 16 MiB.
    public static let defaultLogN: UInt8 = 14
    /// The scrypt lanes `seal` uses unless told otherwise: with 2^14, as much work as age's 2^18.
    public static let defaultLanes: UInt8 = 16
    /// The memory factors `seal` accepts.
    public static let sealLogNRange: ClosedRange<UInt8> = 14...20
    /// The range of memory factors `open` accepts; above it a hostile file could exhaust memory.
    public static let openLogNRange: ClosedRange<UInt8> = 10...20
    /// The range of lanes either side accepts.
    public static let laneRange: ClosedRange<UInt8> = 1...64
    /// The most scrypt work, 2^logN × lanes, either side accepts: eight times the default's.
    public static let maximumWork = 1 << 21

    /// Why `logN` and `lanes` are outside what a file may ask for, or nil when they are fine.
    public static func scryptParametersProblem(logN: UInt8, lanes: UInt8, logNRange: ClosedRange<UInt8>) -> String? {
        guard logNRange.contains(logN) else {
            return "scrypt memory factor 2^\(logN) is outside 2^\(logNRange.lowerBound)…2^\(logNRange.upperBound)"
        }
        guard laneRange.contains(lanes) else {
            return "scrypt lanes \(lanes) is outside \(laneRange.lowerBound)…\(laneRange.upperBound)"
        }
        guard (1 << Int(logN)) * Int(lanes) <= maximumWork else {
            return "scrypt work 2^\(logN) × \(lanes) lanes is over the limit of 2^21"
        }
        return nil
    }

    /// The stanza kind this recipient produces.
    public var kind: StanzaKind {
        switch self {
        case .p256: .p256
        case .x25519: .x25519
        case .xwing: .xwing
        case .passphrase(_, _, let lanes): lanes == 1 ? .passphrase : .passphraseLanes
        }
    }
}

/// A secret that can open files: a private key of one of the v1 kinds, or a passphrase.
public enum FileIdentity: Sendable {
    /// A P-256 private key.
    case p256(P256.KeyAgreement.PrivateKey)
    /// A P-256 private key held where it cannot be read, such as a TPM (ParleyHardwareKeys): it opens what
    /// `.p256` opens.
    case p256Held(any P256KeyAgreementSecret)
    /// An X25519 private key.
    case x25519(Curve25519.KeyAgreement.PrivateKey)
    /// An X-Wing private key.
    case xwing(XWingMLKEM768X25519.PrivateKey)
    /// A passphrase.
    case passphrase(String)

    /// The stanza kind this identity can unwrap.
    public var kind: StanzaKind {
        switch self {
        case .p256, .p256Held: .p256
        case .x25519: .x25519
        case .xwing: .xwing
        case .passphrase: .passphrase
        }
    }

    /// Whether this identity can unwrap stanzas of `stanzaKind` (a passphrase opens both passphrase kinds).
    func opens(_ stanzaKind: StanzaKind) -> Bool {
        stanzaKind == kind || (stanzaKind.isPassphrase && kind.isPassphrase)
    }
}
