import Testing
@testable import ParleyPGP

@Suite struct PacketParserTests {
    @Test func readsOldFormatLengths() throws {
        // Tag 11 old format: 0x80 | 11 << 2 | length type.
        let oneByte: [UInt8] = [0xAC, 0x02, 0xAA, 0xBB]
        let twoByte: [UInt8] = [0xAD, 0x00, 0x01, 0xCC]
        let fourByte: [UInt8] = [0xAE, 0x00, 0x00, 0x00, 0x01, 0xDD]
        let indeterminate: [UInt8] = [0xAF, 1, 2, 3, 4, 5]
        let packets = try PacketParser.parse(oneByte + twoByte + fourByte + indeterminate)
        #expect(packets.map(\.tagNumber) == [11, 11, 11, 11])
        #expect(packets.map(\.body) == [[0xAA, 0xBB], [0xCC], [0xDD], [1, 2, 3, 4, 5]])
    }

    @Test func readsNewFormatLengthsAndRoundTrips() throws {
        for length in [0, 1, 191, 192, 8383, 8384, 70000] {
            let packet = Packet(.literalData, body: (0..<length).map { UInt8(truncatingIfNeeded: $0) })
            let parsed = try PacketParser.parse(packet.encoded)
            #expect(parsed == [packet])
        }
    }

    @Test func joinsPartialBodyLengths() throws {
        // 512-byte partial, 1-byte partial, then a final 3-byte definite chunk.
        var data: [UInt8] = [0xCB, 0xE9] + [UInt8](repeating: 7, count: 512)
        data += [0xE0, 8]
        data += [0x03, 9, 9, 9]
        let packets = try PacketParser.parse(data)
        #expect(packets.count == 1)
        #expect(packets[0].body == [UInt8](repeating: 7, count: 512) + [8, 9, 9, 9])
    }

    @Test func truncationIsItsOwnError() {
        let cases: [[UInt8]] = [
            [0xCB], [0xCB, 0xC5], [0xCB, 0xFF, 0, 0], [0xCB, 0x05, 1, 2],
            [0xAD, 0x00], [0xAC, 0x09, 1], [0xCB, 0xE9, 1, 2, 3],
            [0xCB, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 1],  // a 2 GiB claim with one byte behind it
        ]
        for data in cases {
            #expect(throws: PGPError.truncated) { try PacketParser.parse(data) }
        }
    }

    @Test func rejectsBadHeaders() {
        #expect(throws: PGPError.malformed("packet header without its high bit")) { try PacketParser.parse([0x3F, 0x00]) }
        #expect(throws: PGPError.malformed("packet tag 0 is reserved")) { try PacketParser.parse([0xC0, 0x00]) }
        #expect(throws: PGPError.malformed("packet tag 0 is reserved")) { try PacketParser.parse([0x80, 0x00]) }
    }

    @Test func randomGarbageNeverCrashesAnyDecoder() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let data = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? PacketParser.parse(data)
            _ = try? PublicKey(packetBody: data)
            _ = try? SecretKey(packetBody: data)
            _ = try? Signature(packetBody: data)
            _ = try? PKESK(packetBody: data)
            _ = try? SKESK(packetBody: data)
            _ = try? LiteralData(packetBody: data)
            _ = try? Certificate.readAll(data)
            _ = try? Decryptor(now: 0).decrypt(data)
        }
    }
}
