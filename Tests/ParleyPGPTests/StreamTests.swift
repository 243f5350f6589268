import Foundation
import Testing
@testable import ParleyPGP

/// Streamed decryption and encryption: same results as the in-memory API, bounded chunks, and no
/// output file left behind when a message is altered, cut or unprotected.
@Suite struct StreamTests {
    /// Several chunks and a ragged end, so partial lengths, CFB chaining and held-back MDC bytes all cross chunk edges.
    static let large: [UInt8] = (0..<(3 * PGPStream.chunkSize + 12345)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    func decryptor() throws -> Decryptor {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("ed.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        decryptor.verifiers = [try Fixtures.certificate("ed.pub.asc")]
        return decryptor
    }

    func streamed(_ message: [UInt8], _ decryptor: Decryptor) throws -> ([UInt8], Decryptor.StreamResult) {
        let output = PGPMemoryOutput()
        let result = try decryptor.decrypt(from: PGPMemoryInput(message), to: output)
        return (output.bytes, result)
    }

    @Test(arguments: ["ed.msg.gpg", "ed.uncompressed.msg.gpg", "ed.zip.msg.gpg", "ed.zlib.msg.gpg", "ed.signed.gpg", "ed.signed.msg.asc", "rsa.signed.gpg"])
    func gpgFixturesStreamLikeInMemory(name: String) throws {
        var decryptor = try decryptor()
        decryptor.keys.append(try Fixtures.certificate("rsa.sec.asc"))
        decryptor.verifiers.append(try Fixtures.certificate("rsa.pub.asc"))
        decryptor.strict = false   // the signed-only fixtures read the same way too
        let message = try Fixtures.bytes(name)
        let whole = try decryptor.decrypt(message)
        let (bytes, result) = try streamed(message, decryptor)
        #expect(bytes == whole.literal.data)
        #expect(result.byteCount == bytes.count)
        #expect(result.format == whole.literal.format && result.filename == whole.literal.filename)
        #expect(result.sessionKey == whole.sessionKey)
        #expect(result.verifications.map(\.isGood) == whole.verifications.map(\.isGood))
    }

    @Test func passwordFixture() throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.passwords = [Array("password only".utf8)]  // scripts/vectors/pgp-fixtures.sh
        let message = try Fixtures.bytes("password.msg.gpg")
        #expect(try streamed(message, decryptor).0 == decryptor.decrypt(message).literal.data)
        decryptor.passwords = [Array("wrong".utf8)]
        #expect(throws: PGPError.noMatchingKey) { try streamed(message, decryptor) }
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func largeRoundTripBothWays(compress: Bool, armor: Bool) throws {
        let secret = try Fixtures.certificate("ed.sec.asc")
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.recipients = [try Fixtures.certificate("ed.pub.asc")]
        encryptor.passwords = [Array("a long enough password".utf8)]
        encryptor.signers = [try secret.unlockedSigningKey(passphrases: [Fixtures.passphrase], now: Fixtures.now)]
        encryptor.compress = compress
        let output = PGPMemoryOutput()
        try encryptor.encrypt(from: PGPMemoryInput(Self.large), to: output, filename: Array("big.bin".utf8), armor: armor)
        #expect(Armor.isArmored(output.bytes) == armor)
        // The whole-buffer reader agrees on the streamed writer's bytes …
        let whole = try decryptor().decrypt(output.bytes)
        #expect(whole.literal.data == Self.large)
        #expect(whole.literal.filename == Array("big.bin".utf8))
        #expect(whole.verifications.map(\.isGood) == [true])
        // … and so does the streamed reader, by key and by password.
        let (bytes, result) = try streamed(output.bytes, decryptor())
        #expect(bytes == Self.large)
        #expect(result.verifications.map(\.isGood) == [true])
        var byPassword = Decryptor(now: Fixtures.now)
        byPassword.passwords = [Array("a long enough password".utf8)]
        #expect(try streamed(output.bytes, byPassword).0 == Self.large)
    }

    @Test func streamedOutputUsesPartialLengths() throws {
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.passwords = [Array("a long enough password".utf8)]
        let output = PGPMemoryOutput()
        try encryptor.encrypt(from: PGPMemoryInput(Self.large), to: output)
        // SKESK, then a new-format SEIPD header whose first length octet is a 2^16 partial length.
        let skeskLength = Int(output.bytes[1])
        #expect(output.bytes[2 + skeskLength] == 0xC0 | 18)
        #expect(output.bytes[3 + skeskLength] == 0xF0)
    }

    @Test func inMemoryEncryptionStillReadsStreamed() throws {
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.recipients = [try Fixtures.certificate("ed.pub.asc")]
        encryptor.compress = true
        let message = try encryptor.encrypt(Self.large)
        #expect(try streamed(message, decryptor()).0 == Self.large)
    }

    // MARK: - Refusals, and nothing left on disk

    func withFiles(_ message: [UInt8], _ body: (String, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.gpg").path
        try Data(message).write(to: URL(fileURLWithPath: input))
        try body(input, directory.appendingPathComponent("out.bin").path)
        // Only the input is left: no output, no temporary file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.gpg"])
    }

    func bigMessage() throws -> [UInt8] {
        var encryptor = Encryptor(now: Fixtures.now)
        encryptor.recipients = [try Fixtures.certificate("ed.pub.asc")]
        let output = PGPMemoryOutput()
        try encryptor.encrypt(from: PGPMemoryInput(Self.large), to: output)
        return output.bytes
    }

    @Test func tamperedLargeMessageIsBadMDCAndLeavesNoFile() throws {
        let message = try bigMessage()
        let decryptor = try decryptor()
        // Early in the data (already written when the MDC fails), in the middle, and in the MDC itself.
        for offset in [200, message.count / 2, message.count - 5] {
            var altered = message
            altered[offset] ^= 0x40
            try withFiles(altered) { input, output in
                #expect(throws: PGPError.badMDC) { try PGPFiles.decrypt(input, to: output, with: decryptor) }
            }
        }
    }

    @Test func truncatedLargeMessageIsTruncatedAndLeavesNoFile() throws {
        let message = try bigMessage()
        let decryptor = try decryptor()
        for cut in [1, 22, 5000, PGPStream.chunkSize + 3] {
            try withFiles(Array(message.dropLast(cut))) { input, output in
                #expect(throws: PGPError.truncated) { try PGPFiles.decrypt(input, to: output, with: decryptor) }
            }
        }
    }

    @Test func gpgFixtureTamperingMatchesInMemoryErrors() throws {
        let decryptor = try decryptor()
        let message = try Fixtures.bytes("ed.uncompressed.msg.gpg")
        for offset in [message.count - 40, message.count - 25, message.count - 1] {
            var altered = message
            altered[offset] ^= 0x01
            #expect(throws: PGPError.badMDC) { try streamed(altered, decryptor) }
        }
        for cut in [1, 10, 22, 60] {
            #expect(throws: PGPError.truncated) { try streamed(Array(try Fixtures.bytes("ed.msg.gpg").dropLast(cut)), decryptor) }
        }
    }

    @Test func noMDCStreamIsRefusedAndLeavesNoFile() throws {
        let packets = try PacketParser.parse(Fixtures.bytes("ed.msg.gpg"))
        let downgraded = packets.map { packet in
            packet.tag == .symEncryptedIntegrityProtectedData ? Packet(.symmetricallyEncryptedData, body: Array(packet.body.dropFirst())) : packet
        }
        let decryptor = try decryptor()
        try withFiles(downgraded.encoded) { input, output in
            #expect(throws: PGPError.missingMDC) { try PGPFiles.decrypt(input, to: output, with: decryptor) }
        }
    }

    @Test func wrongKeyLeavesNoFile() throws {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("rsa.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        try withFiles(try bigMessage()) { input, output in
            #expect(throws: PGPError.noMatchingKey) { try PGPFiles.decrypt(input, to: output, with: decryptor) }
        }
    }

    @Test func goodFileAppearsWithOwnerOnlyPermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.gpg").path
        try Data(try bigMessage()).write(to: URL(fileURLWithPath: input))
        let output = directory.appendingPathComponent("out.bin").path
        let result = try PGPFiles.decrypt(input, to: output, with: decryptor())
        #expect(result.byteCount == Self.large.count)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) == Self.large)
        let permissions = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        // An existing output is not replaced unless asked.
        #expect(throws: PGPFiles.Failure.self) { try PGPFiles.decrypt(input, to: output, with: decryptor()) }
        _ = try PGPFiles.decrypt(input, to: output, with: decryptor(), replace: true)
    }

    @Test func garbageAndHostileStreamsFailCleanly() throws {
        var decryptor = try decryptor()
        decryptor.strict = false   // the plain literal message below must stream too
        let hostile: [[UInt8]] = [
            [], [0x00], [0xFF, 0xFF], [0xC0 | 18, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 1],  // 2 GiB length, no data
            [0xC0 | 18, 0xE0], [0xC0 | 11, 0xE1, 0x62],  // partial lengths cut short
            Array("-----BEGIN PGP MESSAGE-----\n\n!!!!\n-----END PGP MESSAGE-----\n".utf8),
            Array("-----BEGIN PGP MESSAGE-----\n\nyMB=\n".utf8),
        ]
        for bytes in hostile {
            #expect(throws: (any Error).self) { try streamed(bytes, decryptor) }
        }
        // A plain literal message streams too.
        let literal = Packet(.literalData, body: LiteralData(data: Self.large).body).encoded
        #expect(try streamed(literal, decryptor).0 == Self.large)
    }

    @Test func crc24StreamMatchesWholeBuffer() {
        var crc = CRC24Stream()
        crc.update(Array(Self.large[0..<1000]))
        crc.update(Array(Self.large[1000...]))
        #expect(crc.value == CRC24.checksum(Self.large))
    }
}
