import Crypto
import Foundation

/// A v4 secret key or subkey packet (RFC 4880 §5.5.3), possibly still locked by a pass phrase.
public struct SecretKey: Sendable {
    /// How the secret part is stored.
    public enum Protection: Sendable, Equatable {
        /// Cleartext secret MPIs with a 2-byte checksum (usage 0).
        case none
        /// Encrypted; `sha1Check` is usage 254 (SHA-1 of the MPIs), otherwise 255 (2-byte checksum).
        case encrypted(cipher: SymmetricAlgorithm, s2k: S2K, iv: [UInt8], sha1Check: Bool)
    }

    /// The public part.
    public let publicKey: PublicKey
    /// How the secret part is protected.
    public let protection: Protection
    /// The secret part as stored: cleartext MPIs (usage 0) or the encrypted blob.
    let secretData: [UInt8]

    /// Parses a secret key packet body; unsupported protections fail with `.unsupported`.
    public init(packetBody: [UInt8]) throws {
        var reader = ByteReader(packetBody)
        publicKey = try PublicKey.read(from: &reader)
        let usage = try reader.u8()
        switch usage {
        case 0:
            protection = .none
        case 254, 255:
            let cipher = try SymmetricAlgorithm.from(reader.u8())
            let s2k = try S2K.read(from: &reader)
            protection = .encrypted(cipher: cipher, s2k: s2k, iv: try reader.take(cipher.blockSize), sha1Check: usage == 254)
        default:
            // Usage is a cipher id with an MD5-derived key: obsolete, refused by name.
            _ = try SymmetricAlgorithm.from(usage)
            throw PGPError.unsupported("secret key protected with the legacy MD5 key derivation")
        }
        secretData = reader.rest()
    }

    init(publicKey: PublicKey, protection: Protection, secretData: [UInt8]) {
        self.publicKey = publicKey
        self.protection = protection
        self.secretData = secretData
    }

    /// Whether a pass phrase is needed to use this key.
    public var isLocked: Bool { protection != .none }

    /// Unlocks the secret MPIs. Throws `.needsPassphrase` when protected and none given,
    /// `.wrongPassphrase` when the integrity check fails.
    public func unlock(passphrase: [UInt8]?) throws -> UnlockedKey {
        let mpis: [UInt8]
        switch protection {
        case .none:
            guard secretData.count >= 2 else { throw PGPError.malformed("secret key without its checksum") }
            mpis = Array(secretData.dropLast(2))
            let checksum = Int(secretData[secretData.count - 2]) << 8 | Int(secretData[secretData.count - 1])
            guard checksum == SecretKey.checksum(mpis) else { throw PGPError.malformed("secret key checksum mismatch") }
        case .encrypted(let cipher, let s2k, let iv, let sha1Check):
            guard let passphrase else { throw PGPError.needsPassphrase }
            let key = s2k.deriveKey(passphrase: passphrase, length: cipher.keySize)
            let plain = try OpenPGPCFB.decrypt(secretData, key: key, iv: iv)
            if sha1Check {
                guard plain.count >= 20 else { throw PGPError.wrongPassphrase }
                mpis = Array(plain.dropLast(20))
                guard constantTimeEqual(Array(Insecure.SHA1.hash(data: mpis)), Array(plain.suffix(20))) else {
                    throw PGPError.wrongPassphrase
                }
            } else {
                guard plain.count >= 2 else { throw PGPError.wrongPassphrase }
                mpis = Array(plain.dropLast(2))
                let sum = Int(plain[plain.count - 2]) << 8 | Int(plain[plain.count - 1])
                guard sum == SecretKey.checksum(mpis) else { throw PGPError.wrongPassphrase }
            }
        }
        return try UnlockedKey(publicKey: publicKey, secretMPIs: mpis)
    }

    /// The RFC 4880 two-octet checksum: the sum of the bytes modulo 65536.
    static func checksum(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { ($0 + Int($1)) & 0xFFFF }
    }

    /// The packet body: public part, then the protection and secret data.
    var body: [UInt8] {
        var out = publicKey.body
        switch protection {
        case .none:
            out.append(0)
        case .encrypted(let cipher, let s2k, let iv, let sha1Check):
            out += [sha1Check ? 254 : 255, cipher.rawValue] + s2k.encoded + iv
        }
        return out + secretData
    }
}
