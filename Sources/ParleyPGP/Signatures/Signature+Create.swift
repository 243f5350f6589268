import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Making v4 signatures with an unlocked key.
extension Signature {
    /// Signs `data` (document or key material) as `type` with `key`, hashing with `hash`.
    ///
    /// Adds creation time and issuer fingerprint (hashed) and issuer key ID (unhashed).
    static func create(type: SignatureType, over data: [UInt8], by key: UnlockedKey, hash: HashAlgorithm = .sha256,
                       time: UInt32, extraHashed: [Subpacket] = []) throws -> Signature {
        // One code path with streamed signing (Signature+Streaming.swift).
        let draft = draft(type: type, by: key.publicKey, hash: hash, time: time, extraHashed: extraHashed)
        var hasher = draft.documentHasher()  // v6: seeded with the salt
        hasher.update(type == .text ? canonicalText(data) : data)
        return try draft.signed(documentHasher: hasher, by: key)
    }

    /// A one-pass signature packet body announcing this signature: v3 (RFC 4880 §5.4) for a v4 signature, v6 with
    /// the salt and the signer's fingerprint for a v6 one (RFC 9580 §5.4).
    func onePassBody(keyID: [UInt8], last: Bool, fingerprint: [UInt8] = []) -> [UInt8] {
        if version == 6 {
            return [6, type.rawValue, hashAlgorithm.rawValue, publicKeyAlgorithm.rawValue, UInt8(salt.count)] + salt + fingerprint + [last ? 1 : 0]
        }
        return [3, type.rawValue, hashAlgorithm.rawValue, publicKeyAlgorithm.rawValue] + keyID + [last ? 1 : 0]
    }
}
