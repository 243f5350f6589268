import Foundation
@testable import ParleyPGP
import Testing

/// The streaming AES-CFB of SEIPD v1 (libgcrypt's) against vectors nobody on the team computed: NIST SP 800-38A's
/// CFB128 samples and random cases made with pyca/cryptography (OpenSSL). Each is run whole, in chunks that chain
/// through the last block, and (decryption) in independent pieces; keys that are no AES key are refused.
@Suite struct CFBStreamVectorTests {
    struct File: Decodable {
        struct Vector: Decodable { let name, key, iv, plaintext: String; let ciphertext: String? }
        let valid: [Vector]
        let invalid: [Vector]
    }

    static func file() throws -> File {
        guard let url = Bundle.module.url(forResource: "aes-cfb128", withExtension: "json", subdirectory: "Vectors/cfb") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    @Test func encryptsAndDecryptsEveryVectorWholeAndInChunks() throws {
        let file = try Self.file()
        #expect(file.valid.count == 21)
        for vector in file.valid {
            let key = [UInt8](hex: vector.key), iv = [UInt8](hex: vector.iv)
            let plaintext = [UInt8](hex: vector.plaintext), ciphertext = [UInt8](hex: try #require(vector.ciphertext))
            var whole = CFBStream(key: key, iv: iv, encrypting: true)
            #expect(try whole.process(plaintext) == ciphertext, "\(vector.name): encrypt")
            var opening = CFBStream(key: key, iv: iv, encrypting: false)
            #expect(try opening.process(ciphertext) == plaintext, "\(vector.name): decrypt")
            for chunk in [16, 32, 48, 1024] {
                #expect(try Self.chunked(plaintext, chunk: chunk, key: key, iv: iv, encrypting: true) == ciphertext,
                        "\(vector.name): encrypt in chunks of \(chunk)")
                #expect(try Self.chunked(ciphertext, chunk: chunk, key: key, iv: iv, encrypting: false) == plaintext,
                        "\(vector.name): decrypt in chunks of \(chunk)")
            }
            for pieces in 1...4 {
                var out = [UInt8](repeating: 0, count: ciphertext.count)
                let stream = CFBStream(key: key, iv: iv, encrypting: false)
                try ciphertext.withUnsafeBytes { cipher in
                    try out.withUnsafeMutableBytes { out in
                        for index in 0..<pieces { try stream.decryptPiece(index, of: pieces, cipher, into: out) }
                    }
                }
                #expect(out == plaintext, "\(vector.name): decrypt in \(pieces) pieces")
            }
        }
    }

    @Test func refusesKeysThatAreNoAESKey() throws {
        for vector in try Self.file().invalid {
            var stream = CFBStream(key: [UInt8](hex: vector.key), iv: [UInt8](hex: vector.iv), encrypting: true)
            #expect(throws: PGPError.self, "\(vector.name)") { try stream.process([UInt8](hex: vector.plaintext)) }
        }
    }

    @Test func aChangedCiphertextBlockChangesOnlyItsOwnAndTheNextBlock() throws {
        // CFB's known malleability, which the MDC (or AEAD) has to catch: pinned so a change of library cannot hide it.
        let vector = try Self.file().valid[2]
        var ciphertext = [UInt8](hex: try #require(vector.ciphertext))
        ciphertext[17] ^= 0x01
        var stream = CFBStream(key: [UInt8](hex: vector.key), iv: [UInt8](hex: vector.iv), encrypting: false)
        let opened = try stream.process(ciphertext), plaintext = [UInt8](hex: vector.plaintext)
        #expect(opened[0..<16] == plaintext[0..<16])
        #expect(opened[17] == plaintext[17] ^ 0x01)
        #expect(opened[32..<48] != plaintext[32..<48])
        #expect(opened[48...] == plaintext[48...])
    }

    /// `bytes` through one stream in chunks of `chunk` bytes (a multiple of 16), the last one shorter.
    static func chunked(_ bytes: [UInt8], chunk: Int, key: [UInt8], iv: [UInt8], encrypting: Bool) throws -> [UInt8] {
        var stream = CFBStream(key: key, iv: iv, encrypting: encrypting)
        var out: [UInt8] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            out += try stream.process(Array(bytes[start..<end]))
            start = end
        }
        return out
    }
}
