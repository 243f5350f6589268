import Crypto
import ParleyWire

/// Reads and checks the prekey fields of `register` (and later `ensure_prekeys`).
enum PreKeyFields {
    static let maximumOneTimePreKeys = 100
    static let mlkem768PublicKeyLength = 1184

    static func parse(_ request: WireRequest, identityKey: [UInt8]) throws(WireError) -> PreKeyUpload {
        let signed = PreKeyUpload.Signed(
            id: UInt32(try request.integer("spk_id", in: 0...Int64(UInt32.max - 1))),
            publicKey: try request.bytes("spk", count: 32),
            signature: try request.bytes("spk_signature", count: 64))
        let pq = PreKeyUpload.Signed(
            id: UInt32(try request.integer("pqspk_id", in: 0...Int64(UInt32.max - 1))),
            publicKey: try request.bytes("pqspk", count: mlkem768PublicKeyLength),
            signature: try request.bytes("pqspk_signature", count: 64))
        guard let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey) else {
            throw .invalid("identity_key", "is not an Ed25519 public key")
        }
        guard verifier.isValidSignature(signed.signature, for: [0x05] + signed.publicKey) else {
            throw .invalid("spk_signature", "does not verify with identity_key")
        }
        guard verifier.isValidSignature(pq.signature, for: [0x0A] + pq.publicKey) else {
            throw .invalid("pqspk_signature", "does not verify with identity_key")
        }
        var oneTime: [(id: UInt32, publicKey: [UInt8])] = []
        var seen = Set<UInt32>()
        for (index, item) in try request.array("one_time_prekeys", maxCount: maximumOneTimePreKeys).enumerated() {
            guard case .object(let object) = item, case .number(let idValue)? = object["id"],
                let id = UInt32(exactly: idValue), id != UInt32.max,
                case .string(let keyText)? = object["key"], let key = Base64.decode(keyText), key.count == 32
            else {
                throw .invalid("one_time_prekeys[\(index)]", "must be {\"id\": u32, \"key\": base64 of 32 bytes}")
            }
            guard seen.insert(id).inserted else { throw .invalid("one_time_prekeys[\(index)]", "repeats id \(id)") }
            oneTime.append((id, key))
        }
        return PreKeyUpload(signedPreKey: signed, pqPreKey: pq, oneTimePreKeys: oneTime)
    }
}

/// Standard base64 without Foundation's leniency surprises.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        guard let data = Foundation.Data(base64Encoded: text) else { return nil }
        return Array(data)
    }
}

import Foundation
