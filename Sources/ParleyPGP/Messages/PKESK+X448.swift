import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// X448 session keys (RFC 9580 §5.1.7): an ephemeral X448 key, HKDF-SHA512 over ephemeral ‖ recipient ‖ shared
/// secret with info "OpenPGP X448" and no salt, and AES-256 key wrap of the bare session key (no checksum, no
/// padding; a v3 packet leaves the cipher octet in the clear, a v6 one leaves it out).
extension PKESK {
    /// The 32-byte AES-256 key-wrap key.
    static func x448KEK(ephemeral: [UInt8], recipient: [UInt8], shared: SecretBytes) -> SymmetricKey {
        let input = shared.withUnsafeBytes { SymmetricKey(data: ephemeral + recipient + Array($0)) }
        return HKDF<SHA512>.deriveKey(inputKeyMaterial: input, info: Array("OpenPGP X448".utf8), outputByteCount: 32)
    }

    /// The X448 fields for `sessionKey` to `recipient`: ephemeral public key, wrapped key, and (v3) the cipher octet.
    static func x448Fields(_ sessionKey: SessionKey, to recipient: [UInt8], version: UInt8) throws -> [[UInt8]] {
        let ephemeral = try Curve448.KeyAgreement.PrivateKey()
        let ephemeralPublic = ephemeral.publicKey.rawRepresentation
        let shared = try ephemeral.sharedSecret(with: Curve448.KeyAgreement.PublicKey(rawRepresentation: recipient))
        let kek = x448KEK(ephemeral: ephemeralPublic, recipient: recipient, shared: shared)
        let wrapped = Array(try AES.KeyWrap.wrap(SymmetricKey(data: sessionKey.key), using: kek))
        return [ephemeralPublic, wrapped, version == 6 ? [] : [sessionKey.algorithm.rawValue]]
    }

    /// Recovers the session key with an X448 secret; any failure (a low-order or altered ephemeral key, a wrong key,
    /// a wrapped key that does not unwrap) is `.noMatchingKey`, as for every other algorithm.
    func decryptX448(with secret: Curve448.KeyAgreement.PrivateKey, recipient: PublicKey, cipher: SymmetricAlgorithm?) throws -> SessionKey {
        guard algorithm == .x448, case .x448(let recipientBytes) = recipient.material else { throw PGPError.noMatchingKey }
        guard let ephemeral = try? Curve448.KeyAgreement.PublicKey(rawRepresentation: fields[0]),
              let shared = try? secret.sharedSecret(with: ephemeral) else { throw PGPError.noMatchingKey }
        let kek = Self.x448KEK(ephemeral: fields[0], recipient: recipientBytes, shared: shared)
        guard let unwrapped = try? AES.KeyWrap.unwrap(fields[1], using: kek) else { throw PGPError.noMatchingKey }
        let algorithm = try cipher ?? SymmetricAlgorithm.from(fields[2].first ?? 0)
        return try SessionKey(algorithm: algorithm, key: unwrapped.withUnsafeBytes { Array($0) })
    }
}
