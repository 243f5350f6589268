import Crypto
import Foundation

/// Derives the X25519 (Diffie–Hellman) form of an Ed25519 identity key.
///
/// Parley has one long-term identity key, an Ed25519 signing key, and uses its
/// birationally equivalent X25519 key for key agreement, as libsodium's
/// `crypto_sign_ed25519_{pk,sk}_to_curve25519` do. swift-crypto has no such
/// conversion, so it lives here; SHA-512 and the key types still come from swift-crypto.
///
/// Results, and the set of rejected public keys, are byte-for-byte those of
/// libsodium (checked against PyNaCl's bundled libsodium; see
/// `Tests/ParleyCryptoTests/Vectors/ed25519-to-x25519.json` and
/// docs/FORMATS.md §3).
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

    /// The y coordinates of the eight small-order points: 0, 1, −1 and ±y₈.
    ///
    /// libsodium's `ge25519_has_small_order` compares the encoding, sign bit
    /// ignored, with seven byte strings: these five values plus p and p + 1 (the
    /// only non-canonical spellings of a small-order y, because only y ≤ 18 has
    /// one). Comparing y mod p against these five is exactly the same test.
    private static let smallOrderY: [FieldElement25519] = {
        let y8 = FieldElement25519(hex: "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
        return [.zero, .one, -.one, y8, -y8]
    }()

    /// Converts an Ed25519 public key to the 32-byte X25519 public key u = (1 + y)/(1 − y).
    ///
    /// Checks run in libsodium's order, so each rejected key gets the reason
    /// libsodium's first failing check implies: length, small order, canonical
    /// y (an extra check that rejects nothing libsodium accepts), on-curve, subgroup.
    public static func x25519PublicKeyBytes<D: DataProtocol>(fromEd25519 publicKey: D) throws(Error) -> [UInt8] {
        guard publicKey.count == 32 else { throw .invalidLength }
        let bytes = Array(publicKey)

        // Small order first, before any curve arithmetic, as libsodium does.
        // The sign bit is ignored, so (0, ±1) with the x sign bit set land here too.
        let yModP = FieldElement25519(littleEndian: bytes)
        if smallOrderY.contains(yModP) { throw .smallOrder }

        let point: EdwardsPoint
        do {
            point = try EdwardsPoint(decoding: bytes)
        } catch {
            switch error {
            case .nonCanonicalY: throw .nonCanonicalEncoding
            case .notOnCurve: throw .notOnCurve
            }
        }

        // A point with a torsion component would let a peer steer the low bits of
        // our DH output (and libsodium refuses it), so require [L]P = identity.
        guard point.isInPrimeOrderSubgroup else { throw .notInPrimeOrderSubgroup }

        // Birational map to Montgomery form. Decoding succeeded, so y is canonical
        // and equals yModP; y ≠ 1 (that point is small-order), so 1 − y is invertible.
        let u = (FieldElement25519.one + yModP) * (FieldElement25519.one - yModP).inverted
        return u.canonicalBytes
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

    /// Converts an Ed25519 private key to its X25519 private key: clamp(SHA-512(seed)[0..<32]).
    ///
    /// This is the scalar Ed25519 itself signs with, so the result's public key is
    /// exactly `x25519PublicKey(from: privateKey.publicKey)`.
    public static func x25519PrivateKey(
        from privateKey: Curve25519.Signing.PrivateKey
    ) -> Curve25519.KeyAgreement.PrivateKey {
        let digest = SHA512.hash(data: privateKey.rawRepresentation)
        var scalar = digest.withUnsafeBytes { Array($0.prefix(32)) }
        // RFC 7748 clamping, byte for byte what libsodium's sk_to_curve25519 does.
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        // Best effort only: the digest value and swift-crypto's own copy are out of our reach.
        defer { for index in scalar.indices { scalar[index] = 0 } }
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        } catch {
            // swift-crypto accepts any 32 bytes as an X25519 private key; only a
            // wrong length can fail, and the length here is fixed.
            preconditionFailure("swift-crypto rejected a 32-byte X25519 private key")
        }
    }
}
