import Foundation
import Crypto
import ParleyWire

/// Checks uploaded prekeys (`register`, `rotate_keys`, `add_device`, `ensure_prekeys`): their shape is read by
/// `API.PreKeys`; the signatures need the identity key, which only the handler knows.
enum PreKeyFields {
    /// The prekeys of `register`, `rotate_keys` and `add_device`, when both signatures verify with `identityKey`.
    static func verified(_ keys: API.PreKeys, identityKey: [UInt8]) throws(WireError) -> PreKeyUpload {
        let upload = try verified(signed: keys.signed, pq: keys.pq, oneTime: keys.oneTime, identityKey: identityKey)
        return PreKeyUpload(signedPreKey: upload.signed!, pqPreKey: upload.pq!, oneTimePreKeys: upload.oneTime)
    }

    /// The prekeys of `ensure_prekeys`, where the signed keys are optional.
    static func verified(
        signed: API.SignedPreKey?, pq: API.SignedPreKey?, oneTime: [API.OneTimePreKey], identityKey: [UInt8]
    ) throws(WireError) -> (signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?, oneTime: [(id: UInt32, publicKey: [UInt8])]) {
        guard let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey) else {
            throw .invalid("identity_key", "is not an Ed25519 public key")
        }
        if let signed, !verifier.isValidSignature(signed.signature, for: [0x05] + signed.publicKey) {
            throw .invalid("spk_signature", "does not verify with the identity key")
        }
        if let pq, !verifier.isValidSignature(pq.signature, for: [0x0A] + pq.publicKey) {
            throw .invalid("pqspk_signature", "does not verify with the identity key")
        }
        return (signed.map(upload), pq.map(upload), oneTime.map { ($0.id, $0.key) })
    }

    private static func upload(_ key: API.SignedPreKey) -> PreKeyUpload.Signed {
        PreKeyUpload.Signed(id: key.id, publicKey: key.publicKey, signature: key.signature)
    }
}
