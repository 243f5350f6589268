import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The key files of `parley file keygen`: the secret sealed in an ECP1 envelope, the public key as PEM.
///
/// Secret: `kind(u8) || key(32)` (P-256 scalar, X25519 raw key, or X-Wing seed).
/// Public: SPKI `PUBLIC KEY` for P-256 and X25519, `PARLEY XWING PUBLIC KEY` (raw 1216 bytes) for X-Wing.
public enum FileKeyFile {
    /// The PEM label of an X-Wing public key, for which no SPKI encoding is standard yet.
    public static let xwingLabel = "PARLEY XWING PUBLIC KEY"
    /// DER prefix of an X25519 SubjectPublicKeyInfo (RFC 8410, id-X25519 1.3.101.110).
    static let x25519SPKIPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x6E, 0x03, 0x21, 0x00]

    /// A new private key of `kind` (passphrases are not keys).
    public static func generate(_ kind: StanzaKind) throws -> FileIdentity {
        switch kind {
        case .p256: .p256(P256.KeyAgreement.PrivateKey())
        case .x25519: .x25519(Curve25519.KeyAgreement.PrivateKey())
        case .xwing: .xwing(try XWingMLKEM768X25519.PrivateKey.generate())
        case .passphrase, .passphraseLanes: throw FileError.invalidKey("a passphrase is not a key to generate")
        }
    }

    /// The bytes to seal in the ECP1 envelope: `kind || key`.
    public static func secret(of identity: FileIdentity) throws -> [UInt8] {
        switch identity {
        case .p256(let key): [StanzaKind.p256.rawValue] + key.rawRepresentation
        case .x25519(let key): [StanzaKind.x25519.rawValue] + key.rawRepresentation
        case .xwing(let key): [StanzaKind.xwing.rawValue] + key.seedRepresentation
        case .passphrase: throw FileError.invalidKey("a passphrase is not stored in a key file")
        case .p256Held: throw FileError.invalidKey("a key held in hardware never leaves it")
        }
    }

    /// The identity held by an opened ECP1 envelope's secret.
    public static func identity(fromSecret secret: [UInt8]) throws -> FileIdentity {
        let invalid = FileError.invalidKey("the key envelope does not hold a Parley file key")
        guard secret.count == 33, let kind = StanzaKind(rawValue: secret[0]) else { throw invalid }
        let key = secret[1...]
        switch kind {
        case .p256:
            guard let k = try? P256.KeyAgreement.PrivateKey(rawRepresentation: key) else { throw invalid }
            return .p256(k)
        case .x25519:
            guard let k = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: key) else { throw invalid }
            return .x25519(k)
        case .xwing:
            guard let k = try? XWingMLKEM768X25519.PrivateKey(seedRepresentation: key, publicKey: nil) else {
                throw invalid
            }
            return .xwing(k)
        case .passphrase, .passphraseLanes:
            throw invalid
        }
    }

    /// The public key file text for `identity`.
    public static func publicKeyPEM(of identity: FileIdentity) throws -> String {
        switch identity {
        case .p256(let key): return key.publicKey.pemRepresentation + "\n"
        case .p256Held(let key): return key.publicKey.pemRepresentation + "\n"
        case .x25519(let key):
            return PEM(label: "PUBLIC KEY", bytes: x25519SPKIPrefix + key.publicKey.rawRepresentation).text
        case .xwing(let key): return PEM(label: xwingLabel, bytes: Array(key.publicKey.rawRepresentation)).text
        case .passphrase: throw FileError.invalidKey("a passphrase has no public key")
        }
    }

    /// Reads a recipient from a public key file: SPKI P-256 or X25519, FileLock's raw P-256, or X-Wing.
    public static func recipient(fromPublicKeyFile file: [UInt8]) throws -> FileRecipient {
        if let text = String(bytes: file, encoding: .utf8), let pem = PEM(parsing: text) {
            if pem.label == xwingLabel {
                guard let key = try? XWingMLKEM768X25519.PublicKey(rawRepresentation: pem.bytes) else {
                    throw FileError.invalidKey("the X-Wing public key is not 1216 valid bytes")
                }
                return .xwing(key)
            }
            if pem.label == "PUBLIC KEY", pem.bytes.count == 44, pem.bytes.starts(with: x25519SPKIPrefix) {
                guard let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: pem.bytes[12...]) else {
                    throw FileError.invalidKey("the X25519 public key is not valid")
                }
                return .x25519(key)
            }
        }
        do {
            return .p256(try P256KeyImport.publicKey(from: file))
        } catch {
            throw FileError.invalidKey(
                "unrecognised public key: expected a PEM public key from `parley file keygen`, an SPKI P-256 key, "
                    + "or FileLock's base64 P-256 point")
        }
    }

    /// Reads an unencrypted P-256 private key (PKCS#8, SEC1, Apple raw) for FileLock interop.
    public static func p256Identity(fromKeyFile file: [UInt8]) throws -> FileIdentity {
        do {
            return .p256(try P256KeyImport.privateKey(from: file))
        } catch {
            throw FileError.invalidKey(
                "unrecognised private key: expected a key envelope from `parley file keygen`, or a P-256 key as "
                    + "PKCS#8 or SEC1 (PEM or DER) or Apple's base64 04||X||Y||D")
        }
    }
}
