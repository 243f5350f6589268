import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Public-key algorithm identifiers (RFC 4880 §9.1, RFC 6637, RFC 9580 §9.1).
public enum PublicKeyAlgorithm: UInt8, Sendable {
    /// RSA, encrypt or sign (1).
    case rsaEncryptSign = 1
    /// RSA, encrypt only (deprecated) (2).
    case rsaEncryptOnly = 2
    /// RSA, sign only (deprecated) (3).
    case rsaSignOnly = 3
    /// ElGamal (not supported) (16).
    case elgamal = 16
    /// DSA (not supported) (17).
    case dsa = 17
    /// ECDH (RFC 6637) (18).
    case ecdh = 18
    /// ECDSA (19).
    case ecdsa = 19
    /// EdDSA in its legacy OpenPGP form (22).
    case eddsaLegacy = 22
    /// X25519 as its own algorithm (25, RFC 9580 §5.5.5.7).
    case x25519 = 25
    /// X448 (26, RFC 9580 §5.5.5.8).
    case x448 = 26
    /// Ed25519 as its own algorithm (27, RFC 9580 §5.5.5.9).
    case ed25519 = 27
    /// Ed448 (28, RFC 9580 §5.5.5.10).
    case ed448 = 28

    /// Parses an algorithm byte; unknown values are "unsupported", not malformed.
    static func from(_ byte: UInt8) throws -> PublicKeyAlgorithm {
        guard let value = PublicKeyAlgorithm(rawValue: byte) else { throw PGPError.unsupported("public-key algorithm \(byte)") }
        return value
    }

    /// The weakest hash a signature by this algorithm may use: Ed448 needs a digest of at least 512 bits (RFC 9580
    /// §5.2.3.5), which among Parley's hashes is SHA-512 only.
    var minimumHashSize: Int { self == .ed448 ? 64 : 0 }
}

/// Symmetric ciphers; only AES is implemented (CAST5, IDEA, 3DES… are refused with `.unsupported`).
public enum SymmetricAlgorithm: UInt8, Sendable {
    /// AES-128 (7).
    case aes128 = 7
    /// AES-192 (8).
    case aes192 = 8
    /// AES-256 (9).
    case aes256 = 9

    /// Key length in bytes.
    public var keySize: Int {
        switch self {
        case .aes128: 16
        case .aes192: 24
        case .aes256: 32
        }
    }

    /// Cipher block size in bytes (16 for every AES).
    public var blockSize: Int { 16 }

    static let names: [UInt8: String] = [
        1: "IDEA", 2: "TripleDES", 3: "CAST5", 4: "Blowfish", 10: "Twofish",
        11: "Camellia-128", 12: "Camellia-192", 13: "Camellia-256",
    ]

    /// Parses a cipher byte; legacy ciphers give a clear "unsupported" error naming them.
    static func from(_ byte: UInt8) throws -> SymmetricAlgorithm {
        guard let value = SymmetricAlgorithm(rawValue: byte) else {
            throw PGPError.unsupported("symmetric cipher \(names[byte] ?? String(byte))")
        }
        return value
    }
}

/// Hash algorithms (RFC 4880 §9.4). SHA-1 is accepted only for reading old data and S2K.
public enum HashAlgorithm: UInt8, Sendable {
    /// SHA-1 (2).
    case sha1 = 2
    /// SHA-256 (8).
    case sha256 = 8
    /// SHA-384 (9).
    case sha384 = 9
    /// SHA-512 (10).
    case sha512 = 10

    /// Parses a hash byte; MD5, RIPEMD-160 and SHA-224 are unsupported.
    static func from(_ byte: UInt8) throws -> HashAlgorithm {
        guard let value = HashAlgorithm(rawValue: byte) else { throw PGPError.unsupported("hash algorithm \(byte)") }
        return value
    }

    /// Digest length in bytes.
    var digestSize: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The salt length a v6 signature with this hash carries (RFC 9580 §9.5).
    var saltSize: Int {
        switch self {
        case .sha1: 0
        case .sha256: 16
        case .sha384: 24
        case .sha512: 32
        }
    }

    /// A running hash of this algorithm.
    func hasher() -> AnyHasher { AnyHasher(self) }

    /// The digest of `data`.
    func digest(_ data: [UInt8]) -> [UInt8] {
        var hasher = hasher()
        hasher.update(data)
        return hasher.finalize()
    }
}

/// A type-erased incremental hash, so one code path serves every `HashAlgorithm`: the bytes of a
/// `TypedHasher`'s digest.
struct AnyHasher {
    private var typed: TypedHasher

    init(_ algorithm: HashAlgorithm) { typed = TypedHasher(algorithm) }

    mutating func update<D: DataProtocol>(_ data: D) { typed.update(data) }

    func finalize() -> [UInt8] { typed.finalize().withUnsafeBytes { Array($0) } }
}
