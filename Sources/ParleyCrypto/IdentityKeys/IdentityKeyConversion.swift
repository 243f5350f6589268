import CSodium
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Derives the X25519 (Diffie–Hellman) form of an Ed25519 identity key.
///
/// Parley has one long-term identity key, an Ed25519 signing key, and uses its
/// birationally equivalent X25519 key for key agreement. swift-crypto has no such
/// conversion; libsodium's `crypto_sign_ed25519_{pk,sk}_to_curve25519` do it, and
/// libsodium's point checks name why a key is refused (libsodium itself only says -1).
///
/// The vectors in `Tests/ParleyCryptoTests/Vectors/ed25519-to-x25519.json` come from
/// PyNaCl's bundled libsodium (docs/FORMATS.md §3).
public enum IdentityKeyConversion {
    /// Why an Ed25519 public key has no usable X25519 form.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The key is not exactly 32 bytes long.
        case invalidLength
        /// The key is one of the eight points of order 1, 2, 4 or 8, in any encoding.
        case smallOrder
        /// The key's y coordinate is written as a number ≥ 2^255 − 19.
        case nonCanonicalEncoding
        /// The key's bytes do not describe a point on the curve.
        case notOnCurve
        /// The key is a curve point outside the prime-order subgroup (it has a torsion component).
        case notInPrimeOrderSubgroup

        /// A user-readable reason that never includes key material.
        public var description: String {
            switch self {
            case .invalidLength:
                "The identity public key does not have the 32 bytes an Ed25519 key has."
            case .smallOrder:
                "The identity public key is a degenerate (small-order) point and cannot be used."
            case .nonCanonicalEncoding:
                "The identity public key is not written in its standard (canonical) form."
            case .notOnCurve:
                "The identity public key is not a valid Ed25519 point."
            case .notInPrimeOrderSubgroup:
                "The identity public key is not in the Ed25519 prime-order group."
            }
        }
    }

    /// libsodium's own list of small-order encodings (`ge25519_has_small_order`), compared with the sign bit
    /// ignored: y = 0, 1, the two y of order 8, and p − 1, p, p + 1 (−1, 0 and 1 again; only they have a
    /// second spelling below 2^255 among small-order points).
    private static let smallOrderEncodings: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        bytes("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
        bytes("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]

    private static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// libsodium asks to be initialised once before use (it picks implementations for this CPU).
    private static let sodium: Void = { precondition(sodium_init() >= 0, "libsodium could not be initialised") }()

    /// Converts an Ed25519 public key to the 32-byte X25519 public key u = (1 + y)/(1 − y).
    ///
    /// Checks run in libsodium's order, so each rejected key gets the reason libsodium's first failing check
    /// implies: length, small order, canonical y (an extra check that rejects nothing libsodium accepts),
    /// on the curve (`crypto_core_ed25519_add` decodes without the subgroup check), and the subgroup (what is
    /// left when `crypto_sign_ed25519_pk_to_curve25519` refuses a point on the curve).
    public static func x25519PublicKeyBytes<D: DataProtocol>(fromEd25519 publicKey: D) throws(Error) -> [UInt8] {
        guard publicKey.count == 32 else { throw .invalidLength }
        let key = Array(publicKey)
        var unsigned = key
        unsigned[31] &= 0x7F
        if smallOrderEncodings.contains(unsigned) { throw .smallOrder }
        // y ≥ p = 2^255 − 19: ed ff … ff 7f and above, little-endian.
        if unsigned[31] == 0x7F, unsigned[1...30].allSatisfy({ $0 == 0xFF }), unsigned[0] >= 0xED { throw .nonCanonicalEncoding }
        _ = sodium
        var sum = [UInt8](repeating: 0, count: 32)
        guard crypto_core_ed25519_add(&sum, key, key) == 0 else { throw .notOnCurve }
        var u = [UInt8](repeating: 0, count: 32)
        // A point with a torsion component would let a peer steer the low bits of our DH output.
        guard crypto_sign_ed25519_pk_to_curve25519(&u, key) == 0 else { throw .notInPrimeOrderSubgroup }
        return u
    }

    /// Converts an Ed25519 public key to the X25519 key-agreement public key.
    ///
    /// Throws `IdentityKeyConversion.Error` for keys libsodium would reject.
    public static func x25519PublicKey(
        from publicKey: Curve25519.Signing.PublicKey
    ) throws -> Curve25519.KeyAgreement.PublicKey {
        let bytes = try x25519PublicKeyBytes(fromEd25519: publicKey.rawRepresentation)
        return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes)
    }

    /// Converts an Ed25519 private key to its X25519 private key, clamp(SHA-512(seed)[0..<32]), with libsodium's
    /// `crypto_sign_ed25519_sk_to_curve25519`.
    ///
    /// This is the scalar Ed25519 itself signs with, so the result's public key is
    /// exactly `x25519PublicKey(from: privateKey.publicKey)`.
    public static func x25519PrivateKey(
        from privateKey: Curve25519.Signing.PrivateKey
    ) -> Curve25519.KeyAgreement.PrivateKey {
        _ = sodium
        // libsodium's secret key is the seed followed by the public key.
        var secret = Array(privateKey.rawRepresentation) + Array(privateKey.publicKey.rawRepresentation)
        var scalar = [UInt8](repeating: 0, count: 32)
        // Best effort only: swift-crypto's own copies are out of our reach.
        defer {
            SecureZero.bytes(&secret)
            SecureZero.bytes(&scalar)
        }
        guard crypto_sign_ed25519_sk_to_curve25519(&scalar, secret) == 0,
              let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        else {
            // libsodium's conversion cannot fail, and swift-crypto accepts any 32 bytes as an X25519 key.
            preconditionFailure("libsodium could not convert an Ed25519 private key")
        }
        return key
    }
}
