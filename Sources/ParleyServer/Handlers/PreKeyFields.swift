import Foundation
import Crypto
import ParleyWire

/// Reads and checks the prekey fields of `register` (and later `ensure_prekeys`).
enum PreKeyFields {
    static let maximumOneTimePreKeys = 100
    static let mlkem768PublicKeyLength = 1184

    static func parse(_ request: WireRequest, identityKey: [UInt8]) throws(WireError) -> PreKeyUpload {
        let upload = try parseOptional(request, identityKey: identityKey, required: true)
        return PreKeyUpload(signedPreKey: upload.signed!, pqPreKey: upload.pq!, oneTimePreKeys: upload.oneTime)
    }

    /// The prekey fields of `ensure_prekeys`, where the signed keys are optional.
    static func parseOptional(
        _ request: WireRequest, identityKey: [UInt8], required: Bool = false
    ) throws(WireError) -> (signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?, oneTime: [(id: UInt32, publicKey: [UInt8])]) {
        guard let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey) else {
            throw .invalid("identity_key", "is not an Ed25519 public key")
        }
        var signed: PreKeyUpload.Signed?
        if required || request.fields["spk"] != nil {
            let key = PreKeyUpload.Signed(
                id: UInt32(try request.integer("spk_id", in: 0...Int64(UInt32.max - 1))),
                publicKey: try request.bytes("spk", count: 32),
                signature: try request.bytes("spk_signature", count: 64))
            guard verifier.isValidSignature(key.signature, for: [0x05] + key.publicKey) else {
                throw .invalid("spk_signature", "does not verify with the identity key")
            }
            signed = key
        }
        var pq: PreKeyUpload.Signed?
        if required || request.fields["pqspk"] != nil {
            let key = PreKeyUpload.Signed(
                id: UInt32(try request.integer("pqspk_id", in: 0...Int64(UInt32.max - 1))),
                publicKey: try request.bytes("pqspk", count: mlkem768PublicKeyLength),
                signature: try request.bytes("pqspk_signature", count: 64))
            guard verifier.isValidSignature(key.signature, for: [0x0A] + key.publicKey) else {
                throw .invalid("pqspk_signature", "does not verify with the identity key")
            }
            pq = key
        }
        var oneTime: [(id: UInt32, publicKey: [UInt8])] = []
        var seen = Set<UInt32>()
        for (index, item) in try request.array("one_time_prekeys", maxCount: maximumOneTimePreKeys).enumerated() {
            guard case .object(let object) = item, case .number(let idValue)? = object["id"],
                let id = UInt32(exactly: idValue), id != UInt32.max,
                case .string(let keyText)? = object["key"], let key = Data(base64Encoded: keyText).map(Array.init), key.count == 32
            else {
                throw .invalid("one_time_prekeys[\(index)]", "must be {\"id\": u32, \"key\": base64 of 32 bytes}")
            }
            guard seen.insert(id).inserted else { throw .invalid("one_time_prekeys[\(index)]", "repeats id \(id)") }
            oneTime.append((id, key))
        }
        return (signed, pq, oneTime)
    }
}
