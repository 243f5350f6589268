import CParleyOpenSSL
import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The AEAD modes of RFC 9580 §9.6 over AES, each from a maintained library: OCB from OpenSSL's EVP, GCM from
/// swift-crypto, EAX composed from OpenSSL's AES-CTR and CMAC as the EAX paper defines it. Tags are 16 bytes.
public enum AEADAlgorithm: UInt8, Sendable {
    /// EAX (1): 16-byte nonce.
    case eax = 1
    /// OCB (2), mandatory to implement: 15-byte nonce.
    case ocb = 2
    /// GCM (3): 12-byte nonce.
    case gcm = 3

    /// Every tag is 16 bytes.
    static let tagSize = 16

    /// Parses an AEAD mode byte; others are unsupported, not malformed.
    static func from(_ byte: UInt8) throws -> AEADAlgorithm {
        guard let value = AEADAlgorithm(rawValue: byte) else { throw PGPError.unsupported("AEAD mode \(byte)") }
        return value
    }

    /// The nonce length this mode takes (RFC 9580 §9.6).
    public var nonceSize: Int {
        switch self {
        case .eax: 16
        case .ocb: 15
        case .gcm: 12
        }
    }

    /// Encrypts `plaintext`, returning ciphertext followed by the 16-byte tag.
    func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        guard nonce.count == nonceSize else { throw PGPError.malformed("AEAD nonce length") }
        switch self {
        case .gcm:
            let box = try AES.GCM.seal(plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: nonce),
                                       authenticating: associatedData)
            return Array(box.ciphertext) + Array(box.tag)
        case .ocb:
            var out = [UInt8](repeating: 0, count: plaintext.count + Self.tagSize)
            let ok = out.withUnsafeMutableBufferPointer { out in
                parley_aes_ocb(1, key, key.count, nonce, nonce.count, associatedData, associatedData.count,
                               plaintext, plaintext.count, out.baseAddress!, out.baseAddress! + plaintext.count)
            }
            guard ok == 1 else { throw PGPError.unsupported("AES-OCB with a \(key.count)-byte key") }
            return out
        case .eax:
            let tagN = try Self.omac(0, nonce, key: key)
            let tagH = try Self.omac(1, associatedData, key: key)
            let ciphertext = try Self.ctr(plaintext, key: key, iv: tagN)
            let tagC = try Self.omac(2, ciphertext, key: key)
            return ciphertext + (0..<Self.tagSize).map { tagN[$0] ^ tagH[$0] ^ tagC[$0] }
        }
    }

    /// Checks the tag at the end of `sealed` and decrypts; `.badMDC` when the tag does not match (altered data,
    /// or the wrong key — AEAD cannot tell them apart).
    func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8]) throws -> [UInt8] {
        guard nonce.count == nonceSize else { throw PGPError.malformed("AEAD nonce length") }
        guard sealed.count >= Self.tagSize else { throw PGPError.truncated }
        let ciphertext = Array(sealed[..<(sealed.count - Self.tagSize)])
        let tag = Array(sealed[(sealed.count - Self.tagSize)...])
        switch self {
        case .gcm:
            do {
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: associatedData))
            } catch {
                throw PGPError.badMDC
            }
        case .ocb:
            var out = [UInt8](repeating: 0, count: ciphertext.count)
            var tagCopy = tag
            let ok = out.withUnsafeMutableBufferPointer { out in
                parley_aes_ocb(0, key, key.count, nonce, nonce.count, associatedData, associatedData.count,
                               ciphertext, ciphertext.count, out.baseAddress, &tagCopy)
            }
            guard ok == 1 else { throw PGPError.badMDC }
            return out
        case .eax:
            let tagN = try Self.omac(0, nonce, key: key)
            let tagH = try Self.omac(1, associatedData, key: key)
            let tagC = try Self.omac(2, ciphertext, key: key)
            let expected = (0..<Self.tagSize).map { tagN[$0] ^ tagH[$0] ^ tagC[$0] }
            guard ConstantTime.equals(expected, tag) else { throw PGPError.badMDC }
            return try Self.ctr(ciphertext, key: key, iv: tagN)
        }
    }

    /// EAX's OMAC^t(M): CMAC over the 16-byte block holding `t` in its last byte, then `data`.
    private static func omac(_ t: UInt8, _ data: [UInt8], key: [UInt8]) throws -> [UInt8] {
        var prefix = [UInt8](repeating: 0, count: 16)
        prefix[15] = t
        var mac = [UInt8](repeating: 0, count: 16)
        guard parley_aes_cmac(key, key.count, prefix, data, data.count, &mac) == 1 else {
            throw PGPError.unsupported("AES-CMAC with a \(key.count)-byte key")
        }
        return mac
    }

    private static func ctr(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: data.count)
        guard parley_aes_ctr(key, key.count, iv, data, data.count, &out) == 1 else {
            throw PGPError.unsupported("AES-CTR with a \(key.count)-byte key")
        }
        return out
    }
}
