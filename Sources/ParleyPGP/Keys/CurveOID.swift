/// The elliptic curves Parley implements, by their OpenPGP OID (RFC 6637, draft-ietf-openpgp-crypto-refresh legacy).
public enum Curve: Sendable, Equatable {
    /// Ed25519 for legacy EdDSA signing keys.
    case ed25519
    /// Curve25519 (X25519) for legacy ECDH encryption keys.
    case curve25519
    /// NIST P-256.
    case p256

    /// The DER OID body (without tag and length), as it appears in key packets.
    var oid: [UInt8] {
        switch self {
        case .ed25519: [0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01]
        case .curve25519: [0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01]
        case .p256: [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        }
    }

    static func from(oid: [UInt8]) throws -> Curve {
        for curve in [Curve.ed25519, .curve25519, .p256] where curve.oid == oid { return curve }
        throw PGPError.unsupported("elliptic curve with OID \(oid.map { String($0) }.joined(separator: "."))")
    }
}
