import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Constants and key schedule of Parley file format v1 (docs/FORMATS.md §10).
public enum FileFormatV1 {
    /// "PRLYFILE": the first eight bytes of every Parley encrypted file.
    public static let magic: [UInt8] = Array("PRLYFILE".utf8)
    /// The version byte this code reads and writes.
    public static let version: UInt8 = 1
    /// The most stanzas (recipients) a file may carry.
    public static let maximumStanzas = 64
    /// Length of the random file key every stanza wraps.
    public static let fileKeyLength = 32
    /// Length of the header MAC (HMAC-SHA256).
    public static let macLength = 32
    /// Length of the payload nonce stored after the MAC.
    public static let payloadNonceLength = 16
    /// Plaintext bytes per chunk.
    public static let chunkSize = 65_536
    /// AES-GCM tag length closing every chunk.
    public static let tagLength = 16
    /// Sealed bytes of a full chunk.
    public static let sealedChunkSize = chunkSize + tagLength

    static let macInfo = Array("parley-file-v1/header-mac".utf8)
    static let payloadInfo = Array("parley-file-v1/payload".utf8)
    static let x25519Info = Array("parley-file-v1/x25519".utf8)
    static let xwingInfo = Array("parley-file-v1/xwing".utf8)
    static let scryptSaltPrefix = Array("parley-file-v1/scrypt".utf8)

    /// HMAC-SHA256 under HKDF(fileKey, "", "parley-file-v1/header-mac") of the header bytes.
    static func headerMAC(fileKey: [UInt8], header: [UInt8]) -> [UInt8] {
        let macKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: fileKey), salt: [UInt8](), info: macInfo, outputByteCount: 32)
        return Array(HMAC<SHA256>.authenticationCode(for: header, using: macKey))
    }

    /// HKDF(fileKey, payloadNonce, "parley-file-v1/payload"): the AES-256-GCM key of every chunk.
    static func payloadKey(fileKey: [UInt8], payloadNonce: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: fileKey), salt: payloadNonce, info: payloadInfo, outputByteCount: 32)
    }
}
