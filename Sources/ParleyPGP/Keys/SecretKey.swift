import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// A v4 or v6 secret key or subkey packet (RFC 9580 §5.5.3), possibly still locked by a pass phrase.
public struct SecretKey: Sendable {
    /// How the secret part is stored.
    public enum Protection: Sendable, Equatable {
        /// Cleartext secret fields (usage 0; v4 adds a 2-byte checksum, v6 none).
        case none
        /// Encrypted in CFB; `sha1Check` is usage 254 (SHA-1 of the fields), otherwise 255 (2-byte checksum).
        case encrypted(cipher: SymmetricAlgorithm, s2k: S2K, iv: [UInt8], sha1Check: Bool)
        /// Encrypted with AEAD under an HKDF-derived key (usage 253, RFC 9580 §3.7.2.1): the tag is the check.
        case aead(cipher: SymmetricAlgorithm, mode: AEADAlgorithm, s2k: S2K, nonce: [UInt8])
    }

    /// The public part.
    public let publicKey: PublicKey
    /// How the secret part is protected.
    public let protection: Protection
    /// Whether this is a subkey packet (tag 7): AEAD protection binds the packet tag.
    let isSubkey: Bool
    /// The secret part as stored: cleartext fields (usage 0) or the encrypted blob.
    let secretData: [UInt8]

    /// Parses a secret key packet body (`subkey`: tag 7); unsupported protections fail with `.unsupported`.
    public init(packetBody: [UInt8], subkey: Bool = false) throws {
        var reader = PacketReader(packetBody)
        publicKey = try PublicKey.read(from: &reader)
        isSubkey = subkey
        let v6 = publicKey.version == 6
        let usage = try reader.u8()
        // v6 counts the optional fields that follow the usage octet (RFC 9580 §5.5.3).
        var fields = usage != 0 && v6 ? PacketReader(try reader.take(Int(reader.u8()))) : reader
        func s2k() throws -> S2K {
            guard v6 else { return try S2K.read(from: &fields) }
            var s2kReader = PacketReader(try fields.take(Int(fields.u8())))
            let s2k = try S2K.read(from: &s2kReader)
            guard s2kReader.isAtEnd else { throw PGPError.malformed("S2K length in a v6 secret key") }
            return s2k
        }
        switch usage {
        case 0:
            protection = .none
        case 253:
            let cipher = try SymmetricAlgorithm.from(fields.u8())
            let mode = try AEADAlgorithm.from(fields.u8())
            protection = .aead(cipher: cipher, mode: mode, s2k: try s2k(), nonce: try fields.take(mode.nonceSize))
        case 254, 255:
            guard !(v6 && usage == 255) else { throw PGPError.malformed("a v6 secret key with the 2-byte checksum protection") }
            let cipher = try SymmetricAlgorithm.from(fields.u8())
            let s2k = try s2k()
            protection = .encrypted(cipher: cipher, s2k: s2k, iv: try fields.take(cipher.blockSize), sha1Check: usage == 254)
        default:
            // Usage is a cipher id with an MD5-derived key: obsolete, refused by name.
            _ = try SymmetricAlgorithm.from(usage)
            throw PGPError.unsupported("secret key protected with the legacy MD5 key derivation")
        }
        if usage != 0 && v6 {
            guard fields.isAtEnd else { throw PGPError.malformed("field count in a v6 secret key") }
        } else {
            reader = fields
        }
        secretData = reader.rest()
    }

    init(publicKey: PublicKey, protection: Protection, secretData: [UInt8], isSubkey: Bool = false) {
        self.publicKey = publicKey
        self.protection = protection
        self.secretData = secretData
        self.isSubkey = isSubkey
    }

    /// Whether a pass phrase is needed to use this key.
    public var isLocked: Bool { protection != .none }

    /// Unlocks the secret fields. Throws `.needsPassphrase` when protected and none given,
    /// `.wrongPassphrase` when the integrity check fails.
    public func unlock(passphrase: [UInt8]?) throws -> UnlockedKey {
        let fields: [UInt8]
        switch protection {
        case .none where publicKey.version == 6:
            fields = secretData
        case .none:
            guard secretData.count >= 2 else { throw PGPError.malformed("secret key without its checksum") }
            fields = Array(secretData.dropLast(2))
            let checksum = Int(secretData[secretData.count - 2]) << 8 | Int(secretData[secretData.count - 1])
            guard checksum == SecretKey.checksum(fields) else { throw PGPError.malformed("secret key checksum mismatch") }
        case .aead(let cipher, let mode, let s2k, let nonce):
            guard let passphrase else { throw PGPError.needsPassphrase }
            let (kek, associated) = try aeadKey(cipher: cipher, mode: mode, derived: s2k.deriveKey(passphrase: passphrase, length: cipher.keySize))
            do {
                fields = try mode.open(secretData, key: kek, nonce: nonce, associatedData: associated)
            } catch {
                throw PGPError.wrongPassphrase
            }
        case .encrypted(let cipher, let s2k, let iv, let sha1Check):
            guard let passphrase else { throw PGPError.needsPassphrase }
            let key = try s2k.deriveKey(passphrase: passphrase, length: cipher.keySize)
            let plain = try OpenPGPCFB.decrypt(secretData, key: key, iv: iv)
            if sha1Check {
                guard plain.count >= 20 else { throw PGPError.wrongPassphrase }
                fields = Array(plain.dropLast(20))
                guard ConstantTime.equals(Array(Insecure.SHA1.hash(data: fields)), Array(plain.suffix(20))) else {
                    throw PGPError.wrongPassphrase
                }
            } else {
                guard plain.count >= 2 else { throw PGPError.wrongPassphrase }
                fields = Array(plain.dropLast(2))
                let sum = Int(plain[plain.count - 2]) << 8 | Int(plain[plain.count - 1])
                guard sum == SecretKey.checksum(fields) else { throw PGPError.wrongPassphrase }
            }
        }
        return try UnlockedKey(publicKey: publicKey, secretMPIs: fields)
    }

    /// The AEAD key and associated data of usage 253: HKDF-SHA256 over the S2K output with info = packet tag
    /// (OpenPGP format), version, cipher, mode; the associated data is the tag then the public key body.
    func aeadKey(cipher: SymmetricAlgorithm, mode: AEADAlgorithm, derived: [UInt8]) throws -> (key: [UInt8], associated: [UInt8]) {
        let tag: UInt8 = isSubkey ? 0xC7 : 0xC5
        let info = [tag, publicKey.version, cipher.rawValue, mode.rawValue]
        let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: derived), info: info, outputByteCount: cipher.keySize)
        return (key.withUnsafeBytes { Array($0) }, [tag] + publicKey.body)
    }

    /// The RFC 4880 two-octet checksum: the sum of the bytes modulo 65536.
    static func checksum(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { ($0 + Int($1)) & 0xFFFF }
    }

    /// The packet body: public part, then the protection and secret data.
    var body: [UInt8] {
        var out = publicKey.body
        let v6 = publicKey.version == 6
        func s2kField(_ s2k: S2K) -> [UInt8] { v6 ? [UInt8(s2k.encoded.count)] + s2k.encoded : s2k.encoded }
        let usage: UInt8
        let fields: [UInt8]
        switch protection {
        case .none:
            return out + [0] + secretData
        case .encrypted(let cipher, let s2k, let iv, let sha1Check):
            usage = sha1Check ? 254 : 255
            fields = [cipher.rawValue] + s2kField(s2k) + iv
        case .aead(let cipher, let mode, let s2k, let nonce):
            usage = 253
            fields = [cipher.rawValue, mode.rawValue] + s2kField(s2k) + nonce
        }
        out.append(usage)
        if v6 { out.append(UInt8(fields.count)) }
        return out + fields + secretData
    }
}
