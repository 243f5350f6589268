import ParleyCrypto
import Testing

@Suite("Message padding")
struct MessagePaddingTests {
    @Test("sizes follow the buckets", arguments: [
        (0, 64), (59, 64), (60, 128), (123, 128), (124, 256), (65_531, 65_536),
        (65_532, 131_072), (131_067, 131_072), (131_068, 196_608),
    ])
    func sizes(length: Int, expected: Int) throws {
        #expect(MessagePadding.paddedSize(forPlaintextLength: length) == expected)
        let padded = MessagePadding.pad([UInt8](repeating: 7, count: length))
        #expect(padded.count == expected)
        #expect(try MessagePadding.unpad(padded) == [UInt8](repeating: 7, count: length))
    }
}

@Suite("Message padding vectors")
struct MessagePaddingVectorTests {
    struct File: Decodable {
        struct Valid: Decodable {
            let plaintextSeed: String, plaintextLength: Int, fillSeed: String
            let paddedLength: Int, paddedSHA256: String, padded: String?
        }
        struct Invalid: Decodable { let name: String, padded: String }
        let valid: [Valid]
        let invalid: [Invalid]
    }

    static let file: File = try! Vectors.load("message-padding")

    @Test("pad reproduces the independent vectors and unpad inverts them")
    func valid() throws {
        for vector in Self.file.valid {
            let plaintext = DeterministicRandomSource(seed: Array(vector.plaintextSeed.utf8)).bytes(vector.plaintextLength)
            let fill = DeterministicRandomSource(seed: Array(vector.fillSeed.utf8))
            let padded = MessagePadding.pad(plaintext, random: fill)
            #expect(padded.count == vector.paddedLength)
            #expect(Array(SHA256Hex.digest(padded)) == Array(vector.paddedSHA256))
            if let expected = vector.padded { #expect(padded.hex == expected) }
            #expect(try MessagePadding.unpad(padded) == plaintext)
        }
    }

    @Test("every malformed vector is refused")
    func invalid() {
        for vector in Self.file.invalid {
            #expect(throws: MessagePadding.Error.self, "\(vector.name)") {
                try MessagePadding.unpad([UInt8](hex: vector.padded))
            }
        }
    }

    @Test("truncating a padded message at any length is refused")
    func truncation() throws {
        let padded = MessagePadding.pad(Array("short message".utf8))
        for length in 0..<padded.count {
            #expect(throws: MessagePadding.Error.self) { try MessagePadding.unpad(padded.prefix(length)) }
        }
    }

    @Test("random garbage of bucket sizes never crashes and never yields oversize plaintext")
    func garbage() {
        let random = DeterministicRandomSource(seed: Array("padding garbage".utf8))
        for size in [64, 128, 256, 65_536, 131_072] {
            for _ in 0..<50 {
                let bytes = random.bytes(size)
                if let plain = try? MessagePadding.unpad(bytes) {
                    #expect(MessagePadding.paddedSize(forPlaintextLength: plain.count) == size)
                }
            }
        }
    }
}

import Crypto

/// Hex SHA-256, to compare large padded vectors by digest.
enum SHA256Hex {
    static func digest(_ bytes: [UInt8]) -> String { Array(SHA256.hash(data: bytes)).hex }
}
