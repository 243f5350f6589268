import Crypto
import Foundation
@testable import ParleyPGP
import Testing

/// SEIPD v2 of several chunks made by Python's `cryptography` (scripts/vectors/rfc9580_seipd2.py), read by both
/// readers, whole and trickled in; each chunk boundary altered or cut is refused.
@Suite struct RFC9580ChunkTests {
    struct File: Decodable {
        struct Vector: Decodable {
            let name: String
            let cipher: UInt8
            let mode: String
            let chunk_size_octet: Int
            let chunks: Int
            let session_key: String
            let literal_length: Int
            let literal_sha256: String
            let message: String
        }
        let vectors: [Vector]
    }

    static func vectors() throws -> [File.Vector] {
        guard let url = Bundle.module.url(forResource: "seipd2-chunks", withExtension: "json", subdirectory: "Vectors/rfc9580") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors
    }

    /// Hands out `bytes` a few at a time, as a slow pipe would.
    final class Trickle: PGPInput {
        let bytes: [UInt8]
        var offset = 0
        let step: Int
        init(_ bytes: [UInt8], step: Int) { self.bytes = bytes; self.step = step }
        func read(upTo count: Int) throws -> [UInt8] {
            let end = min(bytes.count, offset + min(count, step))
            defer { offset = end }
            return Array(bytes[offset..<end])
        }
    }

    @Test func independentMultiChunkMessagesDecrypt() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 6)
        for vector in vectors {
            var decryptor = Decryptor(now: 1_800_000_000)
            decryptor.sessionKeys = [try SessionKey(algorithm: .from(vector.cipher), key: [UInt8](hex: vector.session_key))]
            let message = [UInt8](hex: vector.message)
            let literal = try decryptor.decrypt(message).literal.data
            #expect(literal.count == vector.literal_length, "\(vector.name)")
            #expect(Array(SHA256.hash(data: literal)).hex == vector.literal_sha256, "\(vector.name)")
            for step in [1, 7, 4096] where step > 1 || message.count < 5000 {
                let output = PGPMemoryOutput()
                _ = try decryptor.decrypt(from: Trickle(message, step: step), to: output)
                #expect(output.bytes == literal, "\(vector.name) in steps of \(step)")
            }
        }
    }

    @Test func everyChunkBoundaryAlteredOrCutIsRefused() throws {
        for vector in try Self.vectors() where vector.chunk_size_octet <= 1 {
            let key = try SessionKey(algorithm: .from(vector.cipher), key: [UInt8](hex: vector.session_key))
            let packet = try #require(try PacketParser.parse([UInt8](hex: vector.message)).first)
            let sealed = (1 << (vector.chunk_size_octet + 6)) + 16
            // The last byte of each chunk's tag, and the first byte after it.
            var positions: [Int] = []
            for chunk in 0..<vector.chunks {
                let end = 36 + (chunk + 1) * sealed
                if end - 1 < packet.body.count { positions += [end - 1] }
                if end < packet.body.count { positions += [end] }
            }
            for position in positions {
                var body = packet.body
                body[position] ^= 0x40
                RFC9580InvalidTests.expectRefused([Packet(.symEncryptedIntegrityProtectedData, body: body)].encoded,
                                                  sessionKeys: [key], [.badMDC])
                RFC9580InvalidTests.expectRefused([Packet(.symEncryptedIntegrityProtectedData, body: Array(packet.body.prefix(position)))].encoded,
                                                  sessionKeys: [key], [.badMDC, .truncated])
            }
        }
    }
}
