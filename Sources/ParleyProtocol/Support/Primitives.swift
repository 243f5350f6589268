import Crypto
import Foundation

/// The few primitive calls the protocol makes, in one place so each is written once.
enum Primitives {
    /// HKDF-SHA256 (RFC 5869) as raw bytes.
    static func hkdf(salt: [UInt8], ikm: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ikm), salt: salt, info: info, outputByteCount: count)
        return key.withUnsafeBytes { Array($0) }
    }

    /// HKDF-SHA256 (RFC 5869) with the 32-byte all-zero salt: the message-key derivation every
    /// message makes (docs/PROTOCOL.md §5.3, §6.3).
    ///
    /// Same bytes as `hkdf(salt: 32 zero bytes, …)`. HKDF-Extract is by definition one HMAC keyed
    /// with the salt (PRK = HMAC(salt, ikm)); `HKDF<SHA256>.extract` keys that HMAC afresh on every
    /// call, so here the constant salt's keyed HMAC is made once per process and copied. The expand
    /// step is swift-crypto's own `HKDF<SHA256>.expand`. `PrimitivesTests` checks the result against
    /// `HKDF<SHA256>.deriveKey` on random inputs.
    static func hkdfZeroSalt(ikm: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        var extract = zeroSaltHMAC
        extract.update(data: ikm)
        return HKDF<SHA256>.expand(pseudoRandomKey: extract.finalize(), info: info, outputByteCount: count)
            .withUnsafeBytes { Array($0) }
    }

    /// HMAC-SHA256 keyed with 32 zero bytes, copied for every extract so its key schedule is made once.
    private static let zeroSaltHMAC = HMAC<SHA256>(key: SymmetricKey(data: [UInt8](repeating: 0, count: 32)))

    /// HMAC-SHA256 of one byte, the form every chain step uses.
    static func hmac(key: [UInt8], byte: UInt8) -> [UInt8] {
        let code = HMAC<SHA256>.authenticationCode(for: [byte], using: SymmetricKey(data: key))
        return Array(code)
    }

    /// HMAC-SHA256(key, 0x01) and HMAC-SHA256(key, 0x02) with one key schedule.
    ///
    /// A chain step needs both; setting the key up once and copying the keyed state is the
    /// single most expensive thing we can save per message.
    static func hmacPair(key: [UInt8]) -> (one: [UInt8], two: [UInt8]) {
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: key))
        var first = keyed
        var second = keyed
        withUnsafeBytes(of: UInt8(0x01)) { first.update(data: $0) }
        withUnsafeBytes(of: UInt8(0x02)) { second.update(data: $0) }
        return (first.finalize().withUnsafeBytes { Array($0) }, second.finalize().withUnsafeBytes { Array($0) })
    }

    /// X25519 that refuses an all-zero output, so low-order public keys cannot force a known secret.
    static func dh(
        _ privateKey: Curve25519.KeyAgreement.PrivateKey, _ publicKey: [UInt8]
    ) throws(ProtocolError) -> [UInt8] {
        let shared: [UInt8]
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
            shared = try privateKey.sharedSecretFromKeyAgreement(with: peer).withUnsafeBytes { Array($0) }
        } catch {
            // BoringSSL itself refuses an all-zero result; report it the same way as our check.
            throw .weakKeyAgreement
        }
        guard shared.contains(where: { $0 != 0 }) else { throw .weakKeyAgreement }
        return shared
    }

    /// AES-256-GCM seal; returns ciphertext || tag.
    static func seal(key: [UInt8], nonce: [UInt8], plaintext: [UInt8], ad: [UInt8]) -> [UInt8] {
        // Key and nonce sizes are fixed by our own KDF output, so these cannot fail.
        let box = try! AES.GCM.seal(
            plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: nonce), authenticating: ad)
        var out = Array(box.ciphertext)
        out.append(contentsOf: box.tag)
        return out
    }

    /// AES-256-GCM open of ciphertext || tag.
    static func open(key: [UInt8], nonce: [UInt8], sealed: ArraySlice<UInt8>, ad: [UInt8]) throws(ProtocolError) -> [UInt8] {
        guard sealed.count >= ProtocolConstants.tagSize else { throw .decryptionFailed }
        do {
            let split = sealed.endIndex - ProtocolConstants.tagSize
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: sealed[..<split], tag: sealed[split...])
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: ad))
        } catch {
            throw .decryptionFailed
        }
    }
}
