import Foundation
import ParleyCrypto
import Testing

/// `String.nfc` (the standard library's tables, so ParleyCrypto needs no Foundation) checked against Unicode's own
/// conformance file, and against Foundation's `precomposedStringWithCanonicalMapping`, which it replaced for
/// passwords, passphrases and PINs: a file sealed under a passphrase before the change must open after it.
@Suite("Unicode NFC")
struct UnicodeNFCTests {
    /// One line of NormalizationTest.txt: five columns of code points.
    struct Case {
        let line: Int
        let columns: [String]
    }

    static func cases() throws -> [Case] {
        let url = try #require(Bundle.module.url(forResource: "unicode-normalization-test", withExtension: "txt", subdirectory: "Vectors"))
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            guard !line.hasPrefix("#"), !line.hasPrefix("@"), !line.isEmpty else { return nil }
            let columns = try line.split(separator: ";", omittingEmptySubsequences: false).prefix(5).map { column in
                var scalars = String.UnicodeScalarView()
                for hex in column.split(separator: " ") {
                    scalars.append(try #require(UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init)))
                }
                return String(scalars)
            }
            return Case(line: number + 1, columns: columns)
        }
    }

    @Test("c2 == NFC(c1) == NFC(c2) == NFC(c3) and c4 == NFC(c4) == NFC(c5), on every line of the sample")
    func conformance() throws {
        let cases = try Self.cases()
        #expect(cases.count > 4_000, "the sample is there")
        var failures = 0
        for entry in cases {
            let c = entry.columns
            let ok = c[0].nfc.unicodeScalars.elementsEqual(c[1].unicodeScalars)
                && c[1].nfc.unicodeScalars.elementsEqual(c[1].unicodeScalars)
                && c[2].nfc.unicodeScalars.elementsEqual(c[1].unicodeScalars)
                && c[3].nfc.unicodeScalars.elementsEqual(c[3].unicodeScalars)
                && c[4].nfc.unicodeScalars.elementsEqual(c[3].unicodeScalars)
            if !ok {
                failures += 1
                if failures <= 5 { Issue.record("line \(entry.line) of the sample is not normalised as Unicode says") }
            }
        }
        #expect(failures == 0)
    }

    @Test("""
        the same bytes as Foundation's precomposedStringWithCanonicalMapping, so old passphrases still open — except \
        where Foundation is wrong: it leaves a Hangul LV syllable and a trailing jamo apart after a lone leading jamo
        """)
    func sameAsFoundation() throws {
        let cases = try Self.cases()
        let inputs = cases.flatMap(\.columns) + ["", "pässwörd", "pa\u{0308}sswo\u{0308}rd", "한국어", "\u{1100}\u{1161}\u{11A8}", "👍🏽", "e\u{0301}\u{0327}"]
        var differ: [String] = []
        for input in inputs where input.nfcBytes != Array(input.precomposedStringWithCanonicalMapping.utf8) {
            differ.append(input)
        }
        // Every difference is Foundation's: a Hangul L, then an LV syllable and a T jamo, which Unicode composes
        // (the sample's own expected columns say so, and `conformance` holds them).
        for input in differ {
            let scalars = input.unicodeScalars.map(\.value)
            #expect(scalars.contains { (0x1100...0x1112).contains($0) } && scalars.contains { (0x11A8...0x11C2).contains($0) },
                    "a difference outside Hangul: \(scalars.map { String($0, radix: 16) })")
        }
        #expect(differ.count <= 4, "Foundation and the standard library differ on \(differ.count) inputs")
    }

    @Test("nfcBytes is nfc's UTF-8")
    func bytes() {
        #expect("e\u{0301}".nfcBytes == [0xC3, 0xA9])
        #expect("e\u{0301}".nfc == "\u{E9}" && "\u{E9}".nfc.unicodeScalars.count == 1)
    }
}
