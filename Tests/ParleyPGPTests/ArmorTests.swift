import Foundation
import Testing
@testable import ParleyPGP

@Suite struct ArmorTests {
    struct CRCVector: Decodable { let data: String; let crc: UInt32 }

    @Test func crc24MatchesPythonVectors() throws {
        let vectors: [CRCVector] = try Vectors.load("crc24")
        #expect(vectors.count == 4)
        for vector in vectors {
            #expect(CRC24.checksum([UInt8](hex: vector.data)) == vector.crc)
        }
    }

    @Test func roundTripsEveryKind() throws {
        for kind in Armor.Kind.allCases {
            for length in [0, 1, 47, 48, 49, 1000] {
                let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                let armored = Armor.encode(data, as: kind, headers: [("Comment", "test")])
                let decoded = try Armor.decode(armored)
                #expect(decoded.kind == kind)
                #expect(decoded.data == data)
            }
        }
    }

    @Test func toleratesMangledLineEndingsWhitespaceAndPrefixText() throws {
        let data = Array("some bytes that span more than one armor line, some bytes that span".utf8)
        let armored = Armor.encode(data, as: .message)
        let crlf = "Hi Bob,\r\n\r\n" + armored.replacingOccurrences(of: "\n", with: "  \r\n") + "\r\n-- \r\nAlice"
        #expect(try Armor.decode(crlf).data == data)
        let indented = armored.split(separator: "\n").map { " \t" + $0 }.joined(separator: "\r")
        #expect(try Armor.decode(indented).data == data)
        // No blank line after headers, and no CRC line: both seen in the wild.
        // split() drops the blank separator line, so lines[1...] are data, CRC and END.
        let lines = armored.split(separator: "\n").map(String.init)
        let noBlankNoCRC = ([lines[0], "Version: X"] + lines.dropFirst(1).filter { !$0.hasPrefix("=") }).joined(separator: "\n")
        #expect(try Armor.decode(noBlankNoCRC).data == data)
    }

    @Test func rejectsBadChecksumBase64AndFraming() {
        let armored = Armor.encode(Array("hello".utf8), as: .message)
        var lines = armored.split(separator: "\n").map(String.init)
        let crcIndex = lines.firstIndex { $0.hasPrefix("=") }!
        lines[crcIndex] = "=AAAA"
        #expect(throws: PGPError.badArmor("CRC-24 checksum mismatch")) { try Armor.decode(lines.joined(separator: "\n")) }
        #expect(throws: PGPError.badArmor("no BEGIN PGP line")) { try Armor.decode("hello") }
        #expect(throws: PGPError.badArmor("no matching END line")) {
            try Armor.decode("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n")
        }
        #expect(throws: PGPError.badArmor("invalid base64")) {
            try Armor.decode("-----BEGIN PGP MESSAGE-----\n\na*b&c\n-----END PGP MESSAGE-----\n")
        }
        #expect(throws: PGPError.self) { try Armor.decode("-----BEGIN PGP FOO-----\n\n-----END PGP FOO-----\n") }
        #expect(throws: PGPError.self) {
            try Armor.decode("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n")
        }
    }

    @Test func unwrapPassesBinaryThroughAndDearmorsText() throws {
        let binary: [UInt8] = [0xC3, 0x01, 0x00]
        #expect(try Armor.unwrap(binary) == binary)
        #expect(try Armor.unwrap(Array(Armor.encode(binary, as: .message).utf8)) == binary)
        #expect(Armor.isArmored(Array("\n  -----BEGIN PGP MESSAGE-----".utf8)))
        #expect(!Armor.isArmored([]))
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let noise = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                "ABC=\n\r -:PGP".randomElement(using: &generator)!
            }
            let text = "-----BEGIN PGP MESSAGE-----\n" + String(noise) + "\n-----END PGP MESSAGE-----"
            _ = try? Armor.decode(text)
        }
    }
}
