import Foundation
import ParleyCrypto
import Testing

/// The FoundationEssentials-only stand-ins for Foundation's trimming, replacing and searching (`TextTrimming.swift`)
/// give Foundation's answers on random text made of the characters where the two could part: line breaks inside a
/// "\r\n" Character, NEL and the Unicode separators, no-break, zero-width and ideographic spaces, emoji. With combining
/// marks next to a pattern, Foundation's non-literal matching (canonical equivalence, ignorable characters) is its
/// own; there the stand-ins keep simple rules, pinned in `combiningMarks`.
@Suite("Text scalars, against Foundation")
struct TextScalarsTests {
    static let alphabet: [String] = [
        "a", "B", "<", ">", "?", "=", "-", " ", "\t", "\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}",
        "\u{A0}", "\u{3000}", "\u{200B}", "\u{301}", "é", "e\u{301}", "👍🏽", "<!--", "-->", "=?", "?=", "</B", "</b",
    ]

    /// The alphabet without combining marks and zero-width characters.
    static let plainer = alphabet.filter { !$0.unicodeScalars.contains { $0.value == 0x301 || $0.value == 0x200B } }

    static func randomText(_ generator: inout some RandomNumberGenerator, from letters: [String] = alphabet) -> String {
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
    }

    @Test("trimming spaces, newlines and both: Foundation's .whitespaces, .newlines, .whitespacesAndNewlines")
    func trimming() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = Self.randomText(&generator)
            #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces), "\(text.debugDescription)")
            #expect(text.trimmingNewlines() == text.trimmingCharacters(in: .newlines), "\(text.debugDescription)")
            #expect(text.trimmingSpacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(text[...].trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        }
    }

    @Test("replacingEvery is replacingOccurrences(of:with:), the \\n inside \\r\\n included")
    func replacing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = Self.randomText(&generator, from: Self.plainer)
            for (target, replacement) in [("\n", "\r\n"), ("\r\n", "\n"), ("-", "+"), ("\\", "\\\\"), ("e", ""), ("", "x"), ("?=", "")] {
                #expect(text.replacingEvery(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement),
                        "\(text.debugDescription) \(target.debugDescription)")
            }
        }
    }

    @Test("firstTextRange finds what range(of:) finds, with and without ASCII case")
    func searching() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = Self.randomText(&generator, from: Self.plainer)
            for target in ["=?", "?=", "-->", "\n", "</b"] {
                let ours = text[...].firstTextRange(of: target).map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) }
                let theirs = text.range(of: target).map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) }
                #expect(ours == theirs, "\(text.debugDescription) \(target.debugDescription)")
                let folded = text[...].firstTextRange(of: target, ignoringASCIICase: true)
                    .map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) }
                let foldedTheirs = text.range(of: target, options: .caseInsensitive)
                    .map { text.unicodeScalars.distance(from: text.startIndex, to: $0.lowerBound) }
                #expect(folded == foldedTheirs, "\(text.debugDescription) \(target.debugDescription), ignoring case")
            }
        }
        #expect("x".dropFirst().firstTextRange(of: "x") == nil && "abc"[...].firstTextRange(of: "") == nil)
    }

    @Test("with combining marks: replacing is by scalars, searching by whole Characters")
    func combiningMarks() {
        #expect("x\r\ny".replacingEvery("\n", with: "\r\n") == "x\r\r\ny", "the \\n of a CRLF is one scalar of it")
        #expect("cafe\u{301}".replacingEvery("e", with: "E") == "cafE\u{301}", "the base letter is replaced, its accent stays")
        #expect("a=?\u{301}b"[...].firstTextRange(of: "=?") == nil, "a ? with an accent on it is not the marker")
        let text = "x\u{301}=?y"
        #expect(text[...].firstTextRange(of: "=?").map { text[$0] } == "=?")
        #expect("<SCRIPT"[...].firstTextRange(of: "<script", ignoringASCIICase: true) != nil)
        #expect("<SCRİPT"[...].firstTextRange(of: "<script", ignoringASCIICase: true) == nil, "only ASCII letters fold")
    }
}
