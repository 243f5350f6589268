import Foundation
import Testing
@testable import ParleyPGP

/// The streamed stages keep reused buffers of one chunk (partial packets, SEIPD, the decryptor's
/// held-back MDC bytes): sizes at and around the chunk edges, and inputs that arrive a few bytes at a
/// time, must give the same bytes as the whole-buffer code — and as GnuPG.
@Suite struct StreamBoundaryTests {
    static let chunk = PGPStream.chunkSize
    /// The literal packet header (format, empty name, date) puts 6 bytes before the content, and the
    /// SEIPD prefix 18 more: sizes that make either stage land exactly on, just short of and just past an edge
    /// (64 KiB partial lengths; 256 KiB SEIPD stages).
    static let sizes: [Int] = {
        let offsets = [-25, -24, -23, -7, -6, -5, -1, 0, 1]
        let nearEdges: [Int] = [chunk, 2 * chunk, 4 * chunk].flatMap { edge in offsets.map { edge + $0 } }
        return [0, 1, 15, 16, 17, 22, 23] + nearEdges + [3 * chunk + 12345]
    }()

    static func content(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
    }

    func encryptor() throws -> Encryptor {
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.recipients = [try Fixtures.certificate("ed.pub.asc")]
        return encryptor
    }

    func decryptor() throws -> Decryptor {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("ed.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        return decryptor
    }

    func streamedEncryption(_ content: [UInt8], armor: Bool = false) throws -> [UInt8] {
        let output = PGPMemoryOutput()
        try encryptor().encrypt(from: PGPMemoryInput(content), to: output, armor: armor)
        return output.bytes
    }

    func streamedDecryption(_ input: PGPInput) throws -> [UInt8] {
        let output = PGPMemoryOutput()
        let result = try decryptor().decrypt(from: input, to: output)
        #expect(result.byteCount == output.bytes.count)
        return output.bytes
    }

    @Test(arguments: sizes)
    func streamedWriterAndReaderAgreeWithWholeBufferCode(size: Int) throws {
        let content = Self.content(size)
        let streamed = try streamedEncryption(content)
        // The whole-buffer parser and SEIPD code read what the streamed writer made …
        #expect(try decryptor().decrypt(streamed).literal.data == content)
        // … the streamed reader reads it, and what the whole-buffer writer made.
        #expect(try streamedDecryption(PGPMemoryInput(streamed)) == content)
        #expect(try streamedDecryption(PGPMemoryInput(encryptor().encrypt(content))) == content)
    }

    @Test(arguments: [1, 3, 16, 4099])
    func readerTakesInputThatTricklesIn(step: Int) throws {
        // Every ciphertext block arrives split, so pending partial blocks and header reads cross reads.
        let content = Self.content(step == 1 ? 3000 : 2 * Self.chunk + 77)
        let message = try streamedEncryption(content)
        #expect(try streamedDecryption(ChunkedInput(message, chunkSize: step)) == content)
        #expect(try streamedDecryption(ChunkedInput(streamedEncryption(content, armor: true), chunkSize: step)) == content)
    }

    @Test func partialLengthsSplitWhereExpected() throws {
        // A literal body of exactly one chunk (6 header bytes + content) is one definite length; a byte
        // more makes one 2^16 partial chunk and a definite last part of 1 byte.
        let exact = try innerPackets(Self.content(Self.chunk - 6))
        #expect(exact[0] == 0xC0 | 11 && exact[1] == 0xFF)
        #expect(Array(exact[2..<6]) == [0, 1, 0, 0])
        #expect(exact.count == 1 + 5 + Self.chunk)
        let over = try innerPackets(Self.content(Self.chunk - 5))
        #expect(over[0] == 0xC0 | 11 && over[1] == 0xF0)
        #expect(over[2 + Self.chunk] == 1)
        #expect(over.count == 2 + Self.chunk + 1 + 1)
    }

    /// The packets inside the SEIPD of a streamed message, decrypted by the whole-buffer code.
    func innerPackets(_ content: [UInt8]) throws -> [UInt8] {
        let message = try streamedEncryption(content)
        let packets = try PacketParser.parse(message)
        #expect(packets.map(\.tag) == [.publicKeyEncryptedSessionKey, .symEncryptedIntegrityProtectedData])
        return try SEIPD.decrypt(packets[1].body, with: try #require(decryptor().decrypt(message).sessionKey))
    }

    @Test func alteredOrCutMessagesStillFailAtEveryEdge() throws {
        for size in [Self.chunk - 24, Self.chunk, 2 * Self.chunk + 1] {
            let message = try streamedEncryption(Self.content(size))
            var altered = message
            altered[altered.count - 30] ^= 1
            #expect(throws: PGPError.badMDC) { try streamedDecryption(ChunkedInput(altered, chunkSize: 4099)) }
            #expect(throws: PGPError.truncated) { try streamedDecryption(PGPMemoryInput(Array(message.dropLast(17)))) }
        }
    }

    @Test(arguments: [0, 1, Self.chunk - 6, Self.chunk + 1, 3 * Self.chunk + 12345])
    func gnuPGDecryptsStreamedMessages(size: Int) async throws {
        let gpg = try GPG()
        let secret = try Fixtures.bytes("ed.sec.asc")
        try await gpg(["--import"], input: secret)
        let content = Self.content(size)
        #expect(try await gpg(["--decrypt"], input: streamedEncryption(content)) == content)
        #expect(try await gpg(["--decrypt"], input: streamedEncryption(content, armor: true)) == content)
        // And gpg's own streamed output (partial lengths of its choosing) reads back streamed.
        let fingerprint = try Fixtures.certificate("ed.pub.asc").fingerprint.upperHex
        let fromGPG = try await gpg(["--compress-algo", "none", "--encrypt", "-r", fingerprint], input: content)
        #expect(try streamedDecryption(ChunkedInput(fromGPG, chunkSize: 4099)) == content)
    }

    @Test(arguments: [0, 1, 47, 48, 49, Self.chunk / 2 - 1, Self.chunk / 2, Self.chunk / 2 + 1, 3 * Self.chunk + 5])
    func streamedArmorMatchesWholeBufferArmor(size: Int) throws {
        let content = Self.content(size)
        let packets = Packet(.literalData, body: LiteralData(data: content).body).encoded
        let armored = PGPMemoryOutput()
        try Armor.encode(from: ChunkedInput(packets, chunkSize: 4099), to: armored)
        #expect(armored.bytes == Array(Armor.encode(packets, as: .message).utf8))
        let dearmored = PGPMemoryOutput()
        try Armor.decode(from: ChunkedInput(armored.bytes, chunkSize: 777), to: dearmored)
        #expect(dearmored.bytes == packets)
    }
}
