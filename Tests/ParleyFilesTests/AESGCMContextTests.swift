import Crypto
import Foundation
@testable import ParleyFiles
import Testing

/// The chunk cipher (`AESGCMContext`) against NIST's CAVS vectors, the invalid ones included, and against
/// swift-crypto's `AES.GCM` on random chunks: the move from libcrypto's EVP to BoringSSL's AEAD changed no byte.
@Suite("AES-256-GCM chunk cipher")
struct AESGCMContextTests {
    struct NIST: Decodable {
        struct Encrypt: Decodable { let key, iv, plaintext, ciphertext, tag: String }
        struct Decrypt: Decodable { let key, iv, ciphertext, tag: String; let plaintext: String?; let fail: Bool? }
        let encrypt: [Encrypt]
        let decrypt: [Decrypt]
    }

    static let nist: NIST = try! Vectors.load("aes-256-gcm-nist")

    @Test("NIST's encryption cases: ciphertext and tag byte for byte")
    func nistEncrypt() throws {
        #expect(Self.nist.encrypt.count == 75)
        for vector in Self.nist.encrypt {
            let context = AESGCMContext(key: SymmetricKey(data: [UInt8](hex: vector.key)))
            let plaintext = [UInt8](hex: vector.plaintext)
            var out = [UInt8](repeating: 0, count: plaintext.count + 16)
            let count = plaintext.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { context.seal(input, nonce: [UInt8](hex: vector.iv), into: $0) }
            }
            #expect(count == plaintext.count + 16)
            #expect(out == [UInt8](hex: vector.ciphertext) + [UInt8](hex: vector.tag))
        }
    }

    @Test("NIST's decryption cases: the good ones open to their plaintext, the 33 marked FAIL are refused")
    func nistDecrypt() throws {
        var refused = 0
        for vector in Self.nist.decrypt {
            let context = AESGCMContext(key: SymmetricKey(data: [UInt8](hex: vector.key)))
            let sealed = [UInt8](hex: vector.ciphertext) + [UInt8](hex: vector.tag)
            var out = [UInt8](repeating: 0xAA, count: sealed.count)
            let opened = sealed.withUnsafeBytes { input in
                out.withUnsafeMutableBytes { context.open(input, nonce: [UInt8](hex: vector.iv), into: $0) }
            }
            if vector.fail == true {
                #expect(opened == nil)
                #expect(out.prefix(sealed.count - 16).allSatisfy { $0 == 0 }, "nothing unauthenticated is left in the output")
                refused += 1
            } else {
                let plaintext = [UInt8](hex: try #require(vector.plaintext))
                #expect(opened == plaintext.count)
                #expect(Array(out.prefix(plaintext.count)) == plaintext)
            }
        }
        #expect(refused == 33)
    }

    @Test("random chunks: the same bytes as swift-crypto's AES.GCM, and any flipped bit, other nonce or short input is refused")
    func againstSwiftCrypto() throws {
        for length in [0, 1, 15, 16, 17, 4_095, 65_536] {
            let key = SymmetricKey(size: .bits256)
            let context = AESGCMContext(key: key)
            let plaintext = (0..<length).map { _ in UInt8.random(in: 0...255) }
            let nonce = (0..<12).map { _ in UInt8.random(in: 0...255) }
            var sealed = [UInt8](repeating: 0, count: length + 16)
            _ = plaintext.withUnsafeBytes { input in sealed.withUnsafeMutableBytes { context.seal(input, nonce: nonce, into: $0) } }
            let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce))
            #expect(sealed == Array(box.ciphertext) + Array(box.tag))

            func open(_ bytes: [UInt8], nonce: [UInt8]) -> [UInt8]? {
                var out = [UInt8](repeating: 0, count: max(bytes.count, 16))
                let count = bytes.withUnsafeBytes { input in out.withUnsafeMutableBytes { context.open(input, nonce: nonce, into: $0) } }
                return count.map { Array(out.prefix($0)) }
            }
            #expect(open(sealed, nonce: nonce) == plaintext)
            var flipped = sealed
            flipped[Int.random(in: 0..<flipped.count)] ^= 1 << UInt8.random(in: 0...7)
            #expect(open(flipped, nonce: nonce) == nil)
            var otherNonce = nonce
            otherNonce[11] ^= 1
            #expect(open(sealed, nonce: otherNonce) == nil)
            #expect(open(Array(sealed.prefix(15)), nonce: nonce) == nil, "shorter than a tag")
        }
    }
}
