import ParleyTestSupport
import Testing
@testable import ParleyPGP

/// Issue 26 §1: decryption reads exactly one OpenPGP message. A message that is not encrypted, or anything
/// after the message (stray bytes, a second copy, text after the armor), is an error before any output.
@Suite struct StrictDecryptionTests {
    func decryptor() throws -> Decryptor {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("ed.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        return decryptor
    }

    /// Both readers, whole and streamed; the streamed one must have written nothing when it throws `error`.
    func expectRefused(_ message: [UInt8], _ error: PGPError, _ decryptor: Decryptor, writesNothing: Bool = true,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try decryptor.decrypt(message) }
        let output = PGPMemoryOutput()
        #expect(throws: error, sourceLocation: sourceLocation) { try decryptor.decrypt(from: PGPMemoryInput(message), to: output) }
        if writesNothing { #expect(output.bytes.isEmpty, sourceLocation: sourceLocation) }
    }

    @Test func aBareLiteralPacketIsNotEncryptedAndNothingIsWritten() throws {
        let literal = Packet(.literalData, body: LiteralData(data: Array("never encrypted".utf8)).body).encoded
        expectRefused(literal, .notEncrypted, try decryptor())
        expectRefused(Array(Armor.encode(literal, as: .message).utf8), .notEncrypted, try decryptor())
        // A signed-only message too, for decryption; inline verification still reads it.
        expectRefused(try Fixtures.bytes("ed.signed.gpg"), .notEncrypted, try decryptor())
        var verifying = try decryptor()
        verifying.strict = false
        #expect(try verifying.decrypt(Fixtures.bytes("ed.signed.gpg")).sessionKey == nil)
    }

    @Test func bytesAfterTheMessageAreRefused() throws {
        let message = try Fixtures.bytes("ed.msg.gpg")
        var generator = SplitMix64(state: 26)
        let junk = (0..<100).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let decryptor = try decryptor()
        #expect(throws: (any Error).self) { try decryptor.decrypt(message + junk) }
        let output = PGPMemoryOutput()
        #expect(throws: (any Error).self) { try decryptor.decrypt(from: PGPMemoryInput(message + junk), to: output) }
        // A second copy of the whole message: well-formed packets, still not one message.
        expectRefused(message + message, .trailingData, decryptor, writesNothing: false)
        // One byte after it that cannot start a packet: refused as malformed by the whole-buffer reader, as
        // trailing data by the streamed one (which reads no further than the message).
        #expect(throws: (any Error).self) { try decryptor.decrypt(message + [0]) }
        #expect(throws: PGPError.trailingData) { try decryptor.decrypt(from: PGPMemoryInput(message + [0]), to: PGPMemoryOutput()) }
    }

    @Test func textAfterTheArmorIsRefusedButBlankLinesAreFine() throws {
        let armored = Array(Armor.encode(try Fixtures.bytes("ed.msg.gpg"), as: .message).utf8)
        let decryptor = try decryptor()
        #expect(try decryptor.decrypt(armored + Array("\n\n  \r\n".utf8)).literal.data.isEmpty == false)
        let output = PGPMemoryOutput()
        #expect(try decryptor.decrypt(from: PGPMemoryInput(armored + Array("\n\n".utf8)), to: output).byteCount > 0)
        expectRefused(armored + armored, .trailingData, decryptor, writesNothing: false)
        expectRefused(armored + Array("P.S. and one more thing\n".utf8), .trailingData, decryptor, writesNothing: false)
    }
}
