import Foundation
@testable import ParleyPGP
import Testing

/// RFC 9580 data altered on purpose: AEAD chunks flipped, cut, reordered and resized, v6 packets garbled, hostile
/// Argon2 parameters. Every one must be refused with a typed error, never a crash, by both readers.
@Suite struct RFC9580InvalidTests {
    typealias V = RFC9580Vectors

    /// The message `name` with its SEIPD body changed by `change` (the packet length follows).
    static func withSEIPD(_ name: String, _ change: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        try V.packets(name).map { packet in
            packet.tag == .symEncryptedIntegrityProtectedData ? Packet(tagNumber: packet.tagNumber, body: change(packet.body)) : packet
        }.encoded
    }

    /// Both readers refuse `message`, with `expected` when given.
    static func expectRefused(_ message: [UInt8], keys: [Certificate] = [], passwords: [[UInt8]] = [],
                              sessionKeys: [SessionKey] = [], _ expected: [PGPError], sourceLocation: SourceLocation = #_sourceLocation) {
        var decryptor = Decryptor(now: V.now)
        decryptor.keys = keys
        decryptor.passwords = passwords
        decryptor.sessionKeys = sessionKeys
        for streamed in [false, true] {
            do {
                if streamed {
                    _ = try decryptor.decrypt(from: PGPMemoryInput(message), to: PGPMemoryOutput())
                } else {
                    _ = try decryptor.decrypt(message)
                }
                Issue.record("accepted (streamed: \(streamed))", sourceLocation: sourceLocation)
            } catch let error as PGPError {
                #expect(expected.isEmpty || expected.contains(error), "streamed \(streamed): \(error)", sourceLocation: sourceLocation)
            } catch {
                Issue.record("not a PGPError: \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    // A.10's SEIPD body: 36 header bytes, one 37-byte chunk and its tag, then the final tag.
    static let chunkStart = 36, chunkTag = 36 + 37, finalTag = 36 + 37 + 16

    @Test(arguments: ["a9-aead-eax", "a10-aead-ocb", "a11-aead-gcm"])
    func flippedBitsInChunksAndTags(name: String) throws {
        for index in [Self.chunkStart, Self.chunkStart + 20, Self.chunkTag, Self.chunkTag + 15, Self.finalTag, Self.finalTag + 15] {
            let altered = try Self.withSEIPD(name) { body in
                var body = body
                body[index] ^= 0x01
                return body
            }
            Self.expectRefused(altered, passwords: [V.password], [.badMDC])
        }
        // The salt feeds the key derivation: a flipped salt bit breaks every tag.
        Self.expectRefused(try Self.withSEIPD(name) { var b = $0; b[10] ^= 0x80; return b }, passwords: [V.password], [.badMDC])
    }

    @Test(arguments: ["a8-x25519-aead-ocb", "a10-aead-ocb"])
    func truncatedFinalChunkOrTag(name: String) throws {
        let keys = name.hasPrefix("a8") ? [try V.certificate("a4-v6-secret-key")] : []
        for cut in [1, 8, 15, 16, 17, 20, 31, 32, 40] {
            let altered = try Self.withSEIPD(name) { Array($0.dropLast(cut)) }
            Self.expectRefused(altered, keys: keys, passwords: [V.password], [.badMDC, .truncated])
        }
        // Cut inside the packet as framed (its length says more): truncated.
        let whole = try V.packets(name).encoded
        Self.expectRefused(Array(whole.dropLast(5)), keys: keys, passwords: [V.password], [.truncated])
    }

    @Test func wrongChunkSizeOctet() throws {
        // Another valid size changes the associated data: the tags fail.
        for octet: UInt8 in [0, 5, 7, 16] {
            Self.expectRefused(try Self.withSEIPD("a10-aead-ocb") { var b = $0; b[3] = octet; return b }, passwords: [V.password], [.badMDC])
        }
        // Over 16 is refused as malformed before any decryption (it would ask for chunks over 4 MiB).
        for octet: UInt8 in [17, 22, 0xFF] {
            Self.expectRefused(try Self.withSEIPD("a10-aead-ocb") { var b = $0; b[3] = octet; return b }, passwords: [V.password],
                               [.malformed("SEIPD v2 chunk size octet \(octet) (at most 16 is allowed)")])
        }
        // An unknown AEAD mode or cipher is unsupported.
        Self.expectRefused(try Self.withSEIPD("a10-aead-ocb") { var b = $0; b[2] = 9; return b }, passwords: [V.password], [.unsupported("AEAD mode 9")])
    }

    /// A SEIPD v2 packet of several 64-byte chunks made by the writer, with its session key.
    static func multiChunk(_ mode: AEADAlgorithm) throws -> (body: [UInt8], key: SessionKey) {
        let sessionKey = SessionKey.random(.aes256)
        let output = PGPMemoryOutput()
        let sink = try SEIPDv2EncryptingSink(sessionKey: sessionKey, mode: mode, chunkSizeOctet: 0, next: OutputSink(output))
        try sink.write(Packet(.literalData, body: LiteralData(format: 0x62, filename: [], date: 0, data: Array(repeating: 0x41, count: 200)).body).encoded)
        try sink.finish()
        return (output.bytes, sessionKey)
    }

    @Test(arguments: [AEADAlgorithm.eax, .ocb, .gcm])
    func reorderedDroppedAndRepeatedChunks(mode: AEADAlgorithm) throws {
        let (body, key) = try Self.multiChunk(mode)
        let sealed = 64 + 16
        let header = Array(body[..<36])
        var chunks: [[UInt8]] = []
        var offset = 36
        while body.count - offset > 16 {
            let end = min(offset + sealed, body.count - 16)
            chunks.append(Array(body[offset..<end]))
            offset = end
        }
        let final = Array(body[offset...])
        #expect(chunks.count == 4)  // 211 bytes of literal packet in 64-byte chunks
        func message(_ chunks: [[UInt8]], _ final: [UInt8]) -> [UInt8] {
            [Packet(.symEncryptedIntegrityProtectedData, body: header + chunks.joined() + final)].encoded
        }
        var decryptor = Decryptor(now: V.now)
        decryptor.sessionKeys = [key]
        #expect(try decryptor.decrypt(message(chunks, final)).literal.data.count == 200)
        Self.expectRefused(message([chunks[1], chunks[0], chunks[2], chunks[3]], final), sessionKeys: [key], [.badMDC])
        Self.expectRefused(message([chunks[0], chunks[2], chunks[1], chunks[3]], final), sessionKeys: [key], [.badMDC])
        Self.expectRefused(message([chunks[0], chunks[1], chunks[3]], final), sessionKeys: [key], [.badMDC])
        Self.expectRefused(message([chunks[0], chunks[1], chunks[1], chunks[2], chunks[3]], final), sessionKeys: [key], [.badMDC])
        // Dropping the last chunk(s) at a chunk boundary: the final tag no longer matches.
        Self.expectRefused(message(Array(chunks.prefix(3)), final), sessionKeys: [key], [.badMDC])
        Self.expectRefused(message(Array(chunks.prefix(3)), []), sessionKeys: [key], [.badMDC, .truncated])
        Self.expectRefused(message(chunks, []), sessionKeys: [key], [.badMDC, .truncated])
    }

    @Test func strictDecryptionHoldsForV6() throws {
        let keys = [try V.certificate("a4-v6-secret-key")]
        let message = try V.packets("a8-x25519-aead-ocb")
        Self.expectRefused((message + message).encoded, keys: keys, [.trailingData])
        Self.expectRefused((message + [message[1]]).encoded, keys: keys, [.trailingData])
        let armored = String(decoding: try V.bytes("a8-x25519-aead-ocb"), as: UTF8.self) + "\nmore text\n"
        Self.expectRefused(Array(armored.utf8), keys: keys, [.trailingData])
        // A signed-only v6 message is not an encrypted one.
        Self.expectRefused(try V.bytes("a7-inline-signed"), keys: keys, [.notEncrypted])
    }

    @Test func mangledV6SessionKeyPackets() throws {
        // A flipped bit in the v6 SKESK's encrypted key or tag: the password no longer opens it.
        for index in [0x22 - 2, 0x3F - 2] {
            let message = try V.packets("a10-aead-ocb")
            var skesk = message[0].body
            skesk[index] ^= 0x01
            Self.expectRefused(([Packet(.symmetricKeyEncryptedSessionKey, body: skesk)] + message.dropFirst()).encoded,
                               passwords: [V.password], [.noMatchingKey])
        }
        // A flipped bit in the v6 PKESK's wrapped key: the key wrap check fails.
        let message = try V.packets("a8-x25519-aead-ocb")
        var pkesk = message[0].body
        pkesk[pkesk.count - 3] ^= 0x01
        Self.expectRefused(([Packet(.publicKeyEncryptedSessionKey, body: pkesk)] + message.dropFirst()).encoded,
                           keys: [try V.certificate("a4-v6-secret-key")], [.noMatchingKey])
        // A PKESK for another fingerprint is not tried.
        var other = message[0].body
        other[5] ^= 0x01
        Self.expectRefused(([Packet(.publicKeyEncryptedSessionKey, body: other)] + message.dropFirst()).encoded,
                           keys: [try V.certificate("a4-v6-secret-key")], [.noMatchingKey])
    }

    @Test func hostileArgon2ParametersAreRefusedBeforeAllocating() throws {
        let salt = [UInt8](repeating: 1, count: 16)
        for (t, p, m, why) in [(1, 4, 22, "2^22 KiB"), (1, 1, 31, "2^31 KiB"), (17, 1, 10, "17 passes"), (1, 65, 10, "65 lanes")] {
            let body: [UInt8] = [4, 9, 4] + salt + [UInt8(t), UInt8(p), UInt8(m)] + [UInt8](repeating: 7, count: 33)
            #expect {
                _ = try SKESK(packetBody: body)
            } throws: { error in
                guard case PGPError.unsupported(let what) = error else { return false }
                return what.contains(why)
            }
            // In a message the reason is reported, not "no matching key".
            let message = [Packet(.symmetricKeyEncryptedSessionKey, body: body)] + Array(try V.packets("a12-argon2-aes256").dropFirst())
            var decryptor = Decryptor(now: V.now)
            decryptor.passwords = [V.password]
            #expect(throws: PGPError.self) { try decryptor.decrypt(message.encoded) }
            #expect {
                _ = try decryptor.decrypt(message.encoded)
            } throws: { error in
                guard case PGPError.unsupported(let what) = error else { return false }
                return what.contains("Argon2")
            }
        }
        // Malformed: too little memory for the lanes, zero passes.
        for (t, p, m) in [(1, 4, 4), (0, 1, 10), (1, 0, 10)] {
            #expect(throws: PGPError.self) { try SKESK(packetBody: [4, 9, 4] + salt + [UInt8(t), UInt8(p), UInt8(m)]) }
        }
        // A locked key asking for 2^30 KiB is refused when read.
        var packets = try V.packets("a5-locked-v6-secret-key")
        var primary = packets[0].body
        // Public part (6 + 4 + 32 = 42... v6: 1+4+1+4+32 = 42), usage, count, cipher, mode, S2K length, type, salt, t, p, m.
        let mIndex = 42 + 1 + 1 + 1 + 1 + 1 + 1 + 16 + 2
        #expect(primary[mIndex] == 21)
        primary[mIndex] = 30
        packets[0] = Packet(.secretKey, body: primary)
        #expect(throws: PGPError.unsupported("Argon2 asking for 2^30 KiB of memory (Parley allows up to 2 GiB)")) {
            try Certificate(packets: packets)
        }
    }

    @Test func garbageAndCutsNeverCrash() throws {
        var generator = SystemRandomNumberGenerator()
        // The password samples are opened by their session keys: 65 MB of S2K hashing per try would be minutes here.
        let sessionKeyOf = ["a9-aead-eax": "3881bafe985412459b86c36f98cb9a5e", "a10-aead-ocb": "28e79ab82397d3c63de24ac217d7b791",
                            "a11-aead-gcm": "1936fc8568980274bb900d8319360c77"]
        for name in ["a8-x25519-aead-ocb", "a9-aead-eax", "a10-aead-ocb", "a11-aead-gcm"] {
            let whole = try V.packets(name).encoded
            let keys = name.hasPrefix("a8") ? [try V.certificate("a4-v6-secret-key")] : []
            let sessionKeys = try sessionKeyOf[name].map { [try SessionKey(algorithm: .aes128, key: [UInt8](hex: $0))] } ?? []
            // Cut at every byte.
            for length in 0..<whole.count {
                Self.expectRefused(Array(whole.prefix(length)), keys: keys, sessionKeys: sessionKeys, [])
            }
            // Random bytes in place of each body byte, a few at a time.
            for _ in 0..<50 {
                var altered = whole
                for _ in 0..<3 { altered[Int.random(in: 2..<altered.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                var decryptor = Decryptor(now: V.now)
                decryptor.keys = keys
                decryptor.sessionKeys = sessionKeys
                _ = try? decryptor.decrypt(altered)
                _ = try? decryptor.decrypt(from: PGPMemoryInput(altered), to: PGPMemoryOutput())
            }
        }
        // Random bodies behind each v6 decoder's version byte.
        for _ in 0..<500 {
            let length = Int.random(in: 0..<120, using: &generator)
            let random = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? PublicKey(packetBody: [6] + random)
            _ = try? SecretKey(packetBody: [6] + random)
            _ = try? Signature(packetBody: [6] + random)
            _ = try? PKESK(packetBody: [6] + random)
            _ = try? SKESK(packetBody: [6] + random)
            _ = try? SEIPDv2Header([2] + random)
            _ = try? OnePassSignature(packetBody: [6] + random)
        }
    }
}
