import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 6637 ECDH: the KDF over the shared secret and AES key wrap of the session key.
enum ECDHKeyWrap {
    /// The KDF parameter block bound to the recipient key (RFC 6637 §8).
    static func kdfParameters(for key: PublicKey) throws -> (param: [UInt8], hash: HashAlgorithm, cipher: SymmetricAlgorithm) {
        guard case .ecdh(let curve, _, let hash, let cipher) = key.material else {
            throw PGPError.unusableKey("not an ECDH key")
        }
        var param = [UInt8(curve.oid.count)] + curve.oid + [PublicKeyAlgorithm.ecdh.rawValue, 3, 1, hash.rawValue, cipher.rawValue]
        param += Array("Anonymous Sender    ".utf8) + key.fingerprint
        return (param, hash, cipher)
    }

    /// The key-encryption key: Hash(00 00 00 01 || Z || Param), truncated to the cipher's key size.
    static func kek(sharedSecret: [UInt8], for key: PublicKey) throws -> SymmetricKey {
        let (param, hash, cipher) = try kdfParameters(for: key)
        let digest = hash.digest([0, 0, 0, 1] + sharedSecret + param)
        return SymmetricKey(data: digest.prefix(cipher.keySize))
    }

    /// Wraps `sessionKey` (with checksum and PKCS#5 padding to 8 bytes) for `key`.
    static func wrap(_ sessionKey: SessionKey, sharedSecret: [UInt8], for key: PublicKey) throws -> [UInt8] {
        try wrap(sessionKey.withChecksum, sharedSecret: sharedSecret, for: key)
    }

    /// Wraps an already checksummed session key (v3: with its cipher octet; v6: without).
    static func wrap(_ checksummed: [UInt8], sharedSecret: [UInt8], for key: PublicKey) throws -> [UInt8] {
        var m = checksummed
        let pad = 8 - m.count % 8
        m += [UInt8](repeating: UInt8(pad), count: pad)
        let wrapped = try AES.KeyWrap.wrap(SymmetricKey(data: m), using: kek(sharedSecret: sharedSecret, for: key))
        return Array(wrapped)
    }

    /// Unwraps and unpads; any failure means this key cannot open the message.
    static func unwrap(_ wrapped: [UInt8], sharedSecret: [UInt8], for key: PublicKey, cipher: SymmetricAlgorithm? = nil) throws -> SessionKey {
        let unwrapped: SymmetricKey
        do {
            unwrapped = try AES.KeyWrap.unwrap(wrapped, using: kek(sharedSecret: sharedSecret, for: key))
        } catch {
            throw PGPError.noMatchingKey
        }
        let m = unwrapped.withUnsafeBytes { Array($0) }
        guard let pad = m.last, pad >= 1, pad <= 8, Int(pad) < m.count,
              m.suffix(Int(pad)).allSatisfy({ $0 == pad }) else { throw PGPError.noMatchingKey }
        return try SessionKey.fromChecksummed(Array(m.dropLast(Int(pad))), cipher: cipher)
    }
}
