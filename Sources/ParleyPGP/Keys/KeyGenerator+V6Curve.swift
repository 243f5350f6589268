import Crypto

/// The curve pair of a v6 key: which signing primary and which encryption subkey `generateV6` makes.
extension KeyGenerator {
    /// Ed25519 + X25519 (the default, algorithms 27 and 25) or Ed448 + X448 (algorithms 28 and 26, RFC 9580 §9.1).
    public enum V6Curve: Sendable {
        /// A v6 Ed25519 primary with an X25519 subkey: what RFC 9580 requires every implementation to read.
        case cv25519
        /// A v6 Ed448 primary with an X448 subkey (OpenSSL's libcrypto does the curve work); signatures use SHA-512.
        case cv448
    }

    /// A fresh unlocked signing primary and encryption subkey of `curve`, created at `now`.
    static func v6Pair(_ curve: V6Curve, now: UInt32) throws -> (primary: UnlockedKey, subkey: UnlockedKey) {
        switch curve {
        case .cv25519:
            let signing = Curve25519.Signing.PrivateKey()
            let primaryPublic = PublicKey(created: now, material: .ed25519(publicKey: Array(signing.publicKey.rawRepresentation)), version: 6)
            let agreement = Curve25519.KeyAgreement.PrivateKey()
            let subPublic = PublicKey(created: now, material: .x25519(publicKey: Array(agreement.publicKey.rawRepresentation)), version: 6)
            return (UnlockedKey(publicKey: primaryPublic, secret: .ed25519(signing), secretMPIs: Array(signing.rawRepresentation)),
                    UnlockedKey(publicKey: subPublic, secret: .x25519(agreement), secretMPIs: Array(agreement.rawRepresentation)))
        case .cv448:
            let signing = try Curve448.Signing.PrivateKey()
            let primaryPublic = PublicKey(created: now, material: .ed448(publicKey: signing.publicKey.rawRepresentation), version: 6)
            let agreement = try Curve448.KeyAgreement.PrivateKey()
            let subPublic = PublicKey(created: now, material: .x448(publicKey: agreement.publicKey.rawRepresentation), version: 6)
            return (UnlockedKey(publicKey: primaryPublic, secret: .ed448(signing), secretMPIs: signing.rawRepresentation),
                    UnlockedKey(publicKey: subPublic, secret: .x448(agreement), secretMPIs: agreement.rawRepresentation))
        }
    }
}
