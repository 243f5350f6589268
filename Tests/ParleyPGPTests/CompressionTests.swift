import Testing
@testable import ParleyPGP

@Suite struct CompressionTests {
    @Test func zlibRoundTripsAndZipBombsStopAtTheLimit() throws {
        let data = [UInt8](repeating: 0x41, count: 1 << 20)
        let packet = try Compression.compressZlib(data)
        #expect(packet.count < 4096)
        #expect(try Compression.decompress(packet) == data)
        #expect(throws: PGPError.malformed("compressed data expands beyond 65536 bytes")) {
            try Compression.decompress(packet, limit: 65536)
        }
    }

    @Test func corruptAndUnsupportedCompressionAreErrors() throws {
        #expect(throws: PGPError.malformed("empty compressed data packet")) { try Compression.decompress([]) }
        #expect(throws: PGPError.unsupported("BZip2 compression")) { try Compression.decompress([3, 1, 2]) }
        #expect(throws: PGPError.unsupported("compression algorithm 99")) { try Compression.decompress([99]) }
        #expect(throws: PGPError.malformed("corrupt compressed data")) { try Compression.decompress([2, 0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(try Compression.decompress([0, 7, 8]) == [7, 8])
    }

    @Test func parleyMessagesRoundTripWithEveryOption() throws {
        let now = Fixtures.now - 10
        let alice = try KeyGenerator.generate(userIDs: ["Alice <a@example.org>"], passphrase: nil, now: now)
        let bob = try KeyGenerator.generate(userIDs: ["Bob <b@example.org>", "Bob Work <bob@work.example>"], passphrase: nil, now: now)
        #expect(bob.validUserIDs(at: now).count == 2)
        let signer = try alice.unlockedSigningKey(passphrases: [], now: now)
        let data = Array("line one\nline two\n".utf8)
        for compress in [false, true] {
            for format: UInt8 in [0x62, 0x75] {
                var encryptor = Encryptor(now: now)
                encryptor.recipients = [alice.publicCertificate, bob.publicCertificate]
                encryptor.passwords = [Array("also a password".utf8)]
                encryptor.signers = [signer]
                encryptor.compress = compress
                encryptor.format = format
                let message = try encryptor.encrypt(data)
                for opener in [alice, bob] {
                    var decryptor = Decryptor(now: now + 1)
                    decryptor.keys = [opener]
                    decryptor.verifiers = [alice.publicCertificate]
                    let result = try decryptor.decrypt(message)
                    #expect(result.literal.data == data)
                    #expect(result.verifications.map(\.isGood) == [true])
                    #expect(result.verifications.first?.signature.type == (format == 0x62 ? .binary : .text))
                }
                var byPassword = Decryptor(now: now + 1)
                byPassword.passwords = [Array("also a password".utf8)]
                #expect(try byPassword.decrypt(message).literal.data == data)
            }
        }
        #expect(throws: PGPError.unusableKey("pass phrase shorter than 12 characters")) {
            try KeyGenerator.generate(userIDs: ["x"], passphrase: Array("short".utf8), now: now)
        }
    }
}
