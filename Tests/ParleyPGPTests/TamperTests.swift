import Testing
@testable import ParleyPGP

/// Altered, truncated and unprotected ciphertexts are rejected with their own error, never returned.
@Suite struct TamperTests {
    func decryptor() throws -> Decryptor {
        var decryptor = Decryptor(now: Fixtures.now)
        decryptor.keys = [try Fixtures.certificate("ed.sec.asc")]
        decryptor.keyPassphrases = [Fixtures.passphrase]
        return decryptor
    }

    @Test func flippedCiphertextBitIsBadMDC() throws {
        let message = try Fixtures.bytes("ed.uncompressed.msg.gpg")
        let decryptor = try decryptor()
        // Flip a byte in the middle of the literal data, well past the CFB prefix.
        for offset in [message.count - 40, message.count - 25, message.count - 1] {
            var altered = message
            altered[offset] ^= 0x01
            #expect(throws: PGPError.badMDC) { try decryptor.decrypt(altered) }
        }
    }

    @Test func cutMessageIsTruncated() throws {
        let message = try Fixtures.bytes("ed.msg.gpg")
        let decryptor = try decryptor()
        for cut in [1, 10, 22, 60] {
            #expect(throws: PGPError.truncated) { try decryptor.decrypt(Array(message.dropLast(cut))) }
        }
    }

    @Test func symmetricallyEncryptedDataWithoutMDCIsRefused() throws {
        // Rewrite the SEIPD packet as the old tag-9 packet (same ciphertext, no MDC semantics).
        let packets = try PacketParser.parse(Fixtures.bytes("ed.msg.gpg"))
        let downgraded = packets.map { packet in
            packet.tag == .symEncryptedIntegrityProtectedData ? Packet(.symmetricallyEncryptedData, body: Array(packet.body.dropFirst())) : packet
        }
        #expect(throws: PGPError.missingMDC) { try decryptor().decrypt(downgraded.encoded) }
    }

    @Test func seipdWhoseMDCWasStrippedIsBadMDC() throws {
        // Re-encrypt a plaintext without its MDC packet under a known session key.
        let sessionKey = try SessionKey(algorithm: .aes128, key: [UInt8](repeating: 3, count: 16))
        let literal = Packet(.literalData, body: LiteralData(data: Array("secret".utf8)).body).encoded
        let prefix = [UInt8](repeating: 9, count: 16) + [9, 9]
        let padding = [UInt8](repeating: 0, count: 22)  // where an MDC should be
        let body = [1] + (try OpenPGPCFB.encrypt(prefix + literal + padding, key: sessionKey.key))
        #expect(throws: PGPError.badMDC) { try SEIPD.decrypt(body, with: sessionKey) }
        let honest = try SEIPD.encrypt(literal, with: sessionKey)
        #expect(try SEIPD.decrypt(honest, with: sessionKey) == literal)
    }
}
