import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Apple's ECIES for P-256, byte-compatible with `SecKeyCreateEncryptedData`.
///
/// Blob: `ephemeral point (65) || AES-GCM ciphertext || tag (16)`; X9.63-SHA256 KDF with the
/// ephemeral point as sharedInfo; AES-128-GCM with a 16-byte IV and no associated data.
/// See docs/FORMATS.md §8.
public enum AppleECIES {
    /// How the KDF output becomes a key and an IV.
    public enum Variant: String, Sendable, CaseIterable {
        /// `eciesEncryption{Cofactor,Standard}X963SHA256AESGCM`: 16-byte key, 16 zero IV bytes.
        case cofactor
        /// `eciesEncryption{Cofactor,Standard}VariableIVX963SHA256AESGCM`: key and IV both from the KDF.
        case variableIV = "variable-iv"
    }

    /// Length of the uncompressed ephemeral point that opens every blob.
    public static let ephemeralKeyLength = 65
    /// Length of the AES-GCM tag that closes every blob.
    public static let tagLength = 16
    /// Bytes a blob adds to its plaintext.
    public static let overhead = ephemeralKeyLength + tagLength

    /// Encrypts `plaintext` to `recipient` with a fresh ephemeral key drawn from `random`.
    public static func seal<D: DataProtocol>(
        _ plaintext: D, to recipient: P256.KeyAgreement.PublicKey, variant: Variant,
        random: some RandomSource = SystemRandomSource()
    ) throws(ECIESError) -> [UInt8] {
        try seal(plaintext, to: recipient, variant: variant, ephemeral: P256.KeyAgreement.PrivateKey(random: random))
    }

    /// Encrypts with a caller-chosen ephemeral key; only known-answer tests should choose it.
    public static func seal<D: DataProtocol>(
        _ plaintext: D, to recipient: P256.KeyAgreement.PublicKey, variant: Variant,
        ephemeral: P256.KeyAgreement.PrivateKey
    ) throws(ECIESError) -> [UInt8] {
        let point = Array(ephemeral.publicKey.x963Representation)
        do {
            let (key, iv) = try deriveKeyAndIV(ephemeral, peer: recipient, ephemeralPoint: point, variant: variant)
            let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: iv))
            return point + box.ciphertext + box.tag
        } catch {
            throw .cryptoFailure
        }
    }

    /// Decrypts a blob made for `key`'s public half with `variant`; the key may be held in hardware.
    public static func open<D: DataProtocol>(
        _ blob: D, using key: some P256KeyAgreementSecret, variant: Variant
    ) throws(ECIESError) -> [UInt8] {
        let bytes = Array(blob)
        guard bytes.count >= overhead, bytes[0] == 0x04 else { throw .malformedBlob }
        let point = Array(bytes[0..<ephemeralKeyLength])
        guard let ephemeral = try? P256.KeyAgreement.PublicKey(x963Representation: point) else {
            throw .malformedBlob
        }
        let aesKey: SymmetricKey, iv: [UInt8]
        do {
            (aesKey, iv) = try deriveKeyAndIV(key, peer: ephemeral, ephemeralPoint: point, variant: variant)
        } catch {
            throw .keyUnavailable(String(describing: error))
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: iv),
                ciphertext: bytes[ephemeralKeyLength..<(bytes.count - tagLength)],
                tag: bytes[(bytes.count - tagLength)...])
            return Array(try AES.GCM.open(box, using: aesKey))
        } catch {
            throw .cannotDecrypt
        }
    }

    /// X9.63-SHA256 with the ephemeral point as sharedInfo, split per variant.
    static func deriveKeyAndIV(
        _ key: some P256KeyAgreementSecret, peer: P256.KeyAgreement.PublicKey, ephemeralPoint: [UInt8], variant: Variant
    ) throws -> (SymmetricKey, [UInt8]) {
        switch variant {
        case .cofactor:
            let derived = try key.x963DerivedKey(with: peer, sharedInfo: ephemeralPoint, outputByteCount: 16)
            return (derived, [UInt8](repeating: 0, count: 16))
        case .variableIV:
            let derived = try key.x963DerivedKey(with: peer, sharedInfo: ephemeralPoint, outputByteCount: 32)
            let bytes = derived.withUnsafeBytes { Array($0) }
            return (SymmetricKey(data: bytes[0..<16]), Array(bytes[16..<32]))
        }
    }
}
