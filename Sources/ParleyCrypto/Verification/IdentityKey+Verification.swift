import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Fingerprint {
    /// Computes the fingerprint of an Ed25519 identity key through its X25519 form.
    public init(identityKey: Curve25519.Signing.PublicKey, id: String) throws(VerificationError) {
        let montgomery: [UInt8]
        do {
            montgomery = try IdentityKeyConversion.x25519PublicKeyBytes(fromEd25519: identityKey.rawRepresentation)
        } catch {
            throw .invalidIdentityKey
        }
        try self.init(encodedKey: [0x05] + montgomery, id: id)
    }
}

extension SafetyNumber {
    /// Computes the safety number for two Ed25519 identity keys and account ids.
    public init(
        local: (identityKey: Curve25519.Signing.PublicKey, id: String),
        remote: (identityKey: Curve25519.Signing.PublicKey, id: String)
    ) throws(VerificationError) {
        self.init(
            try Fingerprint(identityKey: local.identityKey, id: local.id),
            try Fingerprint(identityKey: remote.identityKey, id: remote.id))
    }
}
