import Crypto
import _CryptoExtras
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// AES in the full-block CFB mode OpenPGP uses, built on swift-crypto's `AES._CFB`.
///
/// SEIPD v1 encrypts the random prefix together with the data under an all-zero IV and, unlike the
/// old SED packet, does not "resync" — which is exactly plain CFB-128. Secret-key protection uses
/// plain CFB with the IV stored in the packet.
enum OpenPGPCFB {
    static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]? = nil) throws -> [UInt8] {
        let iv = try AES._CFB.IV(ivBytes: iv ?? [UInt8](repeating: 0, count: 16))
        return Array(try AES._CFB.encrypt(plaintext, using: SymmetricKey(data: key), iv: iv))
    }

    static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]? = nil) throws -> [UInt8] {
        let iv = try AES._CFB.IV(ivBytes: iv ?? [UInt8](repeating: 0, count: 16))
        return Array(try AES._CFB.decrypt(ciphertext, using: SymmetricKey(data: key), iv: iv))
    }
}
