import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads and writes the P-256 key encodings that Apple platforms and FileLock use.
///
/// Private: PKCS#8 or SEC1, as PEM, DER or base64 DER, and Apple's raw `04 || X || Y || D` (97 bytes) in base64.
/// Public: SPKI as PEM or DER, and FileLock's base64 raw point, framed as PEM or bare.
public enum P256KeyImport {
    /// The length of Apple's `SecKeyCopyExternalRepresentation` of a P-256 private key.
    public static let appleRawPrivateLength = 97
    /// The length of an uncompressed P-256 point.
    public static let rawPointLength = 65

    static let privateFormats = "P-256 private key: expected PKCS#8 or SEC1 (PEM or DER), or Apple's base64 04||X||Y||D"
    static let publicFormats = "P-256 public key: expected SPKI (PEM or DER) or a base64 65-byte point (FileLock)"

    /// Parses a private key from the bytes of a key file.
    public static func privateKey<D: DataProtocol>(from file: D) throws(ECIESError) -> P256.KeyAgreement.PrivateKey {
        let bytes = Array(file)
        if let text = String(bytes: bytes, encoding: .utf8) {
            if text.contains("-----BEGIN") {
                if let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: text) { return key }
                throw .unrecognizedKey(privateFormats)
            }
            let compact = text.filter { !$0.isWhitespace }
            if let raw = Data(base64Encoded: compact) {
                if raw.count == appleRawPrivateLength { return try appleRaw(Array(raw)) }
                // Bare base64 DER (SEC1 or PKCS#8), as keys are often pasted from Go or Swift sources.
                if let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: Array(raw)) { return key }
            }
        }
        if bytes.count == appleRawPrivateLength, bytes.first == 0x04 { return try appleRaw(bytes) }
        if let key = try? P256.KeyAgreement.PrivateKey(derRepresentation: bytes) { return key }
        throw .unrecognizedKey(privateFormats)
    }

    /// Parses a public key from the bytes of a key file.
    public static func publicKey<D: DataProtocol>(from file: D) throws(ECIESError) -> P256.KeyAgreement.PublicKey {
        let bytes = Array(file)
        var candidate = bytes
        if let text = String(bytes: bytes, encoding: .utf8) {
            if let pem = PEM(parsing: text) {
                guard pem.label == "PUBLIC KEY" else { throw .unrecognizedKey(publicFormats) }
                candidate = pem.bytes
            } else if let raw = Data(base64Encoded: text.filter { !$0.isWhitespace }) {
                candidate = Array(raw)
            }
        }
        if candidate.count == rawPointLength, candidate.first == 0x04 {
            guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: candidate) else {
                throw .unrecognizedKey(publicFormats)
            }
            return key
        }
        guard let key = try? P256.KeyAgreement.PublicKey(derRepresentation: candidate) else {
            throw .unrecognizedKey(publicFormats)
        }
        return key
    }

    /// Apple's raw private form, refused unless its public half belongs to its scalar.
    static func appleRaw(_ raw: [UInt8]) throws(ECIESError) -> P256.KeyAgreement.PrivateKey {
        guard raw.first == 0x04,
            let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw[rawPointLength...]),
            Array(key.publicKey.x963Representation) == Array(raw[0..<rawPointLength])
        else {
            throw .unrecognizedKey("Apple raw P-256 private key: its public point does not match its scalar")
        }
        return key
    }

    /// Apple's raw private form `04 || X || Y || D`, base64, as `SecKeyCopyExternalRepresentation` gives it.
    public static func appleRawBase64(_ key: P256.KeyAgreement.PrivateKey) -> String {
        Data(key.publicKey.x963Representation + key.rawRepresentation).base64EncodedString()
    }

    /// FileLock's public key "PEM": the raw 65-byte point, base64, between PUBLIC KEY lines.
    public static func fileLockPEM(_ key: P256.KeyAgreement.PublicKey) -> String {
        PEM(label: "PUBLIC KEY", bytes: Array(key.x963Representation)).text
    }
}
