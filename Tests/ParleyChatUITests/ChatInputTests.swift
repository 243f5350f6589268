@testable import ParleyChatUI
import Testing

/// The input line (editing, history) and the commands typed in it.
@Suite("parley chat: input line and commands")
struct ChatInputTests {
    @Test(arguments: [
        ("hello", ChatInput.send("hello")),
        ("  spaced out  ", .send("spaced out")),
        ("", .none), ("   ", .none),
        ("//slash first", .send("/slash first")),
        ("/reply 12 sounds good", .reply(12, "sounds good")),
        ("/reply #12 with  two  spaces", .reply(12, "with  two  spaces")),
        ("/react 3 👍", .react(3, "👍")),
        ("/pin 4", .pin(4, true)), ("/unpin 4", .pin(4, false)),
        ("/delete 5", .delete(5)),
        ("/open bob@example.org", .open("bob@example.org")),
        ("/accept 7", .acceptInvitation(7)), ("/join #7", .acceptInvitation(7)), ("/decline 7", .declineInvitation(7)),
        ("/fav", .favourite), ("/members", .members), ("/who", .members), ("/help", .help), ("/lock", .lock), ("/quit", .quit), ("/QUIT", .quit),
    ])
    func commands(line: String, expected: ChatInput) {
        #expect(ChatInput.parse(line) == expected)
    }

    @Test(arguments: [
        ("/reply", "usage: /reply N text"), ("/reply x hi", "usage: /reply N text"), ("/reply 3", "needs some text"),
        ("/reply -3 hi", "usage: /reply N text"), ("/react 3", "usage: /react N"), ("/pin", "usage: /pin N"),
        ("/pin 1 2", "usage: /pin N"), ("/delete 99999999999999999999", "usage: /delete N"), ("/open bob", "usage: /open EMAIL"),
        ("/accept", "usage: /accept N"), ("/accept seven", "usage: /accept N"), ("/decline 1 2", "usage: /decline N"),
        ("/frobnicate", "unknown command /frobnicate"),
    ])
    func mistakesSayWhatToType(line: String, hint: String) {
        guard case .invalid(let message) = ChatInput.parse(line) else {
            Issue.record("\(line) should be invalid")
            return
        }
        #expect(message.contains(hint), "\(message)")
    }

    @Test func anUnknownCommandIsNotEchoedRaw() {
        guard case .invalid(let message) = ChatInput.parse("/\u{1B}[2J" + String(repeating: "z", count: 100)) else {
            Issue.record("should be invalid")
            return
        }
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B })
        #expect(message.count < 80)
    }

    @Test func editing() {
        var line = InputLine()
        line.insert("helo")
        line.move(by: -1)
        line.insert("l")
        #expect(line.text == "hello" && line.cursor == 4)
        line.moveTo(start: false)
        line.insert(" wide 世界")
        line.backspace()
        #expect(line.text == "hello wide 世")
        line.deleteWord()
        #expect(line.text == "hello wide ")
        line.moveTo(start: true)
        line.deleteForward()
        #expect(line.text == "ello wide ")
        line.move(by: -10)
        #expect(line.cursor == 0)
        line.move(by: 100)
        #expect(line.cursor == line.text.count)
        line.clear()
        #expect(line.text.isEmpty && line.cursor == 0)
        // Pasted control characters become harmless; an enormous paste is cut.
        line.insert("a\u{1B}[2Jb\tc")
        #expect(line.text == "a␛[2Jb c")
        line.insert(String(repeating: "x", count: 10_000))
        #expect(line.text.count == InputLine.maximumLength)
    }

    @Test func historyWalksBackAndKeepsTheDraft() {
        var line = InputLine()
        for text in ["first", "second", "second", "   "] {
            line.insert(text)
            _ = line.submit()
        }
        #expect(line.history == ["first", "second"])
        line.insert("draft")
        line.historyUp()
        #expect(line.text == "second")
        line.historyUp()
        #expect(line.text == "first")
        line.historyUp()
        #expect(line.text == "first")
        line.historyDown()
        #expect(line.text == "second")
        line.historyDown()
        #expect(line.text == "draft")
        line.historyDown()
        #expect(line.text == "draft")
        #expect(line.submit() == "draft")
        #expect(line.history.last == "draft")
        #expect(line.text.isEmpty)
    }

    @Test func displayWidths() {
        #expect(DisplayWidth.cells("abc") == 3)
        #expect(DisplayWidth.cells("漢字") == 4)
        #expect(DisplayWidth.cells("👍") == 2)
        #expect(DisplayWidth.cells("❤️") == 2)
        #expect(DisplayWidth.cells("e\u{301}") == 1)
        #expect(DisplayWidth.cells("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.truncated("漢字漢字", to: 5) == "漢字…")
        #expect(DisplayWidth.truncated("abc", to: 3) == "abc")
        #expect(DisplayWidth.padded("漢", to: 4) == "漢  ")
        #expect(DisplayWidth.rightAligned("ab", to: 4) == "  ab")
        #expect(DisplayWidth.wrapped("one two three", width: 7) == ["one two", "three"])
        #expect(DisplayWidth.wrapped("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayWidth.wrapped("漢字漢", width: 1) == [""])
        #expect(DisplayWidth.wrapped("", width: 5) == [""])
    }
}
