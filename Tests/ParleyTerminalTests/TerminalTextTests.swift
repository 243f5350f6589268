import Foundation
@testable import ParleyTerminal
import Testing

/// The one escaper between remote text and the terminal (`TerminalText`), value in, value out.
@Suite("TerminalText")
struct TerminalTextTests {
    @Test(arguments: [
        ("plain text, ünïcode, 漢字 and 👍🏽", "plain text, ünïcode, 漢字 and 👍🏽"),
        ("\u{1B}]0;title\u{07}", "␛]0;title␇"),
        ("a\u{1B}[2Jb", "a␛[2Jb"),
        ("real\rfake", "real␍fake"),
        ("line one\r\nline two\n\ttab", "line one\nline two\n\ttab"),
        ("trailing\r", "trailing␍"),
        ("\u{9B}31m \u{85} \u{7F} \u{0}", "<U+9B>31m <U+85> ␡ ␀"),
        ("abc\u{202E}gnp.exe \u{2066}x\u{2069} \u{200F}", "abc<U+202E>gnp.exe <U+2066>x<U+2069> <U+200F>"),
        ("para\u{2029}graph", "para<U+2029>graph"),
    ])
    func controlsAreShownNotObeyed(_ input: String, _ shown: String) {
        #expect(TerminalText.visible(input) == shown)
    }

    @Test func oneLineCellsTurnBreaksIntoSpaces() {
        #expect(TerminalText.visible("a\r\nb\tc\rd\u{1B}", singleLine: true) == "a  b c d␛")
    }

    @Test func jsonStaysTheSameJSONAndTurnsInert() throws {
        let original = ["text": "x\u{1B}[2J\u{9B}\u{202E}y\r"]
        let encoded = String(decoding: try JSONEncoder().encode(original), as: UTF8.self)
        let safe = TerminalText.jsonSafe(encoded)
        #expect(!safe.unicodeScalars.contains(where: TerminalText.needsEscape))
        #expect(try JSONDecoder().decode([String: String].self, from: Data(safe.utf8)) == original)
    }

    @Test func continuationLinesAreIndented() {
        #expect(TerminalText.indentedLines("first\n[1#9 09:00] bob: fake") == "first\n    [1#9 09:00] bob: fake")
    }

    @Test func namesShowWhatCouldHideInThem() {
        #expect(TerminalText.name("Ann") == "Ann")
        #expect(TerminalText.name("Ann\u{00A0}") == "Ann<U+A0>")
        #expect(TerminalText.name("A\u{200B}nn\u{2060}\u{FEFF}") == "A<U+200B>nn<U+2060><U+FEFF>")
        #expect(TerminalText.name("Mal\u{202E}lortxt.exe") == "Mal<U+202E>lortxt.exe")
        #expect(TerminalText.name("\u{3164}\u{115F}") == "<U+3164><U+115F>")
        #expect(TerminalText.name("two\nlines\u{1B}[2J") == "two lines␛[2J")
        // Message text keeps what some scripts and emoji need; only names mark it.
        #expect(TerminalText.visible("👨\u{200D}👩\u{200D}👧 ok\u{00A0}!") == "👨\u{200D}👩\u{200D}👧 ok\u{00A0}!")
        #expect(TerminalText.name("Zoë Łukasz 李") == "Zoë Łukasz 李")
    }
}
