import Foundation
@testable import ParleyChatUI
import ParleyClient
import Testing

/// The pure renderer: `ChatScreen` → lines, checked without a terminal.
@Suite("parley chat: renderer")
struct ChatRendererTests {
    func screen(width: Int = 80, height: Int = 16) -> ChatScreen {
        var screen = ChatScreen(width: width, height: height, account: "ann@example.org")
        screen.link = .connected
        screen.conversations = [
            .init(id: 2, name: "Climbing trip", unread: 0, favourite: true, online: nil, shield: nil),
            .init(id: 1, name: "bob", unread: 3, favourite: false, online: true, shield: nil),
            .init(id: 3, name: "carol", unread: 120, favourite: false, online: false, shield: "✓"),
        ]
        screen.selectedID = 1
        screen.title = "bob · online"
        screen.messages = [
            .init(id: 7, sender: "bob", time: "10:41", text: "Lunch at noon?", quote: nil, reactions: [("👍", 2), ("❤️", 1)]),
            .init(id: 8, sender: "me", time: "10:42", text: "Yes!", quote: "#7 bob: Lunch at noon?", reactions: [], pinned: true,
                  tick: .read),
            .init(id: 9, sender: "bob", time: "10:43", text: "", quote: nil, reactions: [], deleted: true),
            .init(id: 10, sender: "bob", time: "10:44", text: "menu", quote: nil, reactions: [], attachment: "menu.pdf"),
        ]
        return screen
    }

    /// Every line fits the width, and there are exactly `height` of them.
    func checkGeometry(_ rendered: RenderedScreen, width: Int, height: Int) {
        #expect(rendered.lines.count == height)
        for line in rendered.lines { #expect(DisplayWidth.cells(line) <= width, "\(line)") }
        #expect(DisplayWidth.cells(rendered.lines.last ?? "") < width)   // the input line never fills the last cell
    }

    @Test func theFullLayout() {
        let rendered = screen().render()
        checkGeometry(rendered, width: 80, height: 16)
        let lines = rendered.lines
        #expect(lines[0].hasPrefix(" Parley · ann@example.org"))
        #expect(lines[0].hasSuffix("● connected "))
        #expect(lines[1].hasPrefix(" Conversations"))
        #expect(lines[1].contains("│ bob · online"))
        // Favourite first (the caller orders), selection arrow, presence dots, shield column, unread counts.
        #expect(lines[2].hasPrefix(" ★   Climbing trip"))
        #expect(lines[3].hasPrefix("▶ ●  bob"))
        #expect(lines[3].contains(" 3│"))
        #expect(lines[4].hasPrefix("  ○✓ carol"))
        #expect(lines[4].contains(" 99+│"))
        let pane = lines.map { $0.split(separator: "│", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(pane.contains { $0.hasPrefix("#7 10:41 bob: Lunch at noon?") })
        #expect(pane.contains { $0.hasPrefix("  👍 2  ❤️ 1") })
        #expect(pane.contains { $0.hasPrefix(" ┌ ↪ #7 bob: Lunch at noon?") })
        #expect(pane.contains { $0.hasPrefix("#8 10:42 me: Yes! 📌 ✓✓ read") })
        #expect(pane.contains { $0.hasPrefix("#9 10:43 bob: (deleted)") })
        #expect(pane.contains { $0.hasPrefix("  📎 menu.pdf") })
        // The newest message sits at the bottom of the pane, right above the help bar.
        #expect(pane[12].hasPrefix("  📎 menu.pdf"))
        #expect(lines[13].contains("Tab/Shift-Tab"))
        #expect(lines[14].allSatisfy { $0 == "─" })
        #expect(lines[15] == "> ")
        #expect(rendered.cursorRow == 15 && rendered.cursorColumn == 2)
    }

    @Test func eventsAreOneLineWithoutSenderIdOrTicks() {
        var screen = screen()
        screen.messages = [
            .init(id: -1, sender: "", time: "10:40", text: "⚠ The identity key of bob changed.", quote: nil, reactions: [], event: true),
            .init(id: 11, sender: "", time: "10:45", text: "bob named the group “Trip”", quote: nil, reactions: [], event: true),
        ]
        let lines = screen.render().lines
        #expect(lines.contains { $0.contains("· 10:40 ⚠ The identity key of bob changed.") })
        #expect(lines.contains { $0.contains("· 10:45 bob named the group “Trip”") })
        #expect(!lines.contains { $0.contains("#-1") || $0.contains("📎") })
    }

    @Test func eventMessagesBecomeEventRows() {
        func message(_ kind: String, _ text: String) -> Message {
            // The SDK's values have no public memberwise initialisers; they are Codable.
            let fields: [String: Any] = ["id": 5, "conversationID": 1, "senderID": 2, "senderDevice": 1, "timestamp": 0, "text": text,
                                         "kind": kind, "reactions": [String: [Int64]](), "pinned": false, "deleted": false,
                                         "deliveredTo": [Int64](), "undecryptable": false]
            return try! JSONDecoder().decode(Message.self, from: JSONSerialization.data(withJSONObject: fields))
        }
        #expect(ChatState.event(message(Message.keyChangeKind, "⚠ changed"), by: "bob") == "⚠ changed")
        #expect(ChatState.event(message("avatar", ""), by: "bob") == "bob has a new picture")
        #expect(ChatState.event(message("group_title", "Trip"), by: "ann") == "ann named the group “Trip”")
        #expect(ChatState.event(message("text", "hi"), by: "ann") == nil)
    }

    @Test func connectionIndicatorAndNotice() {
        var screen = screen()
        screen.link = .reconnecting(attempt: 3)
        screen.notice = "not connected to the server"
        let lines = screen.render().lines
        #expect(lines[0].hasSuffix("◌ reconnecting (3) "))
        #expect(lines[14].hasPrefix(" ! not connected to the server"))
        screen.link = .offline
        #expect(screen.render().lines[0].hasSuffix("○ offline "))
    }

    @Test func emptyStates() {
        var empty = ChatScreen(width: 60, height: 10, account: "ann@example.org")
        var lines = empty.render().lines
        checkGeometry(empty.render(), width: 60, height: 10)
        #expect(lines[2].hasPrefix(" (none yet)"))
        #expect(lines.contains { $0.contains("No conversations yet.") })
        empty.conversations = [.init(id: 1, name: "bob", unread: 0, favourite: false, online: nil, shield: nil)]
        empty.selectedID = 1
        lines = empty.render().lines
        #expect(lines.contains { $0.contains("No messages yet") })
    }

    @Test func narrowTerminalsDropTheListThenGiveUpClearly() {
        let narrow = screen(width: 36, height: 12).render()
        checkGeometry(narrow, width: 36, height: 12)
        #expect(!narrow.lines[1].contains("│"))
        #expect(narrow.lines.contains { $0.hasPrefix("#10 10:44 bob: menu") })
        for width in [40, 59, 60, 61, 200] { checkGeometry(screen(width: width, height: 12).render(), width: width, height: 12) }
        let tiny = screen(width: 12, height: 4).render()
        #expect(tiny.lines == ["terminal to…", "", "", ""])
        #expect(screen(width: 0, height: 0).render().lines.isEmpty)
    }

    @Test func longAndWideTextWrapsWithinThePane() {
        var screen = screen(width: 60, height: 20)
        let long = String(repeating: "word ", count: 40) + String(repeating: "x", count: 90)
        screen.messages = [
            .init(id: 1, sender: "bob", time: "09:00", text: long, quote: nil, reactions: []),
            .init(id: 2, sender: "李", time: "09:01", text: String(repeating: "漢字", count: 30), quote: nil, reactions: []),
        ]
        let rendered = screen.render()
        checkGeometry(rendered, width: 60, height: 20)
        let pane = rendered.lines.dropFirst(2).prefix(14).map { String($0.split(separator: "│").last ?? "") }
        // Continuation lines hang under the text, not under the prefix.
        let continuation = pane.first { $0.hasPrefix(String(repeating: " ", count: 14) + "x") }
        #expect(continuation != nil)
        #expect(pane.contains { $0.hasPrefix("#2 09:01 李: 漢字") })
    }

    @Test func hostileTextCannotReachTheTerminal() {
        var screen = screen()
        screen.messages = [.init(id: 1, sender: "evil\u{1B}]0;owned\u{07}", time: "09:00",
                                 text: "\u{1B}[2J\u{1B}[31mred\u{9B}1m\r\nline\u{202E}txt", quote: "\u{1B}[H", reactions: [])]
        screen.title = "\u{1B}[?1049l"
        screen.notice = "bad\u{1B}c"
        screen.conversations[1].name = "bo\u{1B}[5mb"
        for line in screen.render().lines {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E }, "\(line)")
        }
    }

    @Test func scrollingIsClampedAndShown() {
        var screen = screen(width: 80, height: 10)
        screen.messages = (1...30).map { .init(id: Int64($0), sender: "bob", time: "09:00", text: "message \($0)", quote: nil, reactions: []) }
        var rendered = screen.render()
        #expect(rendered.lines[6].contains("message 30"))
        screen.scroll = 10
        rendered = screen.render()
        #expect(rendered.scroll == 10)
        #expect(rendered.lines[6].contains("message 20"))
        #expect(rendered.lines[1].contains("↑ 10 lines up"))
        screen.scroll = 1000
        rendered = screen.render()
        #expect(rendered.scroll == 25)
        #expect(rendered.lines[2].contains("message 1 "))
    }

    @Test func helpReplacesTheMessages() {
        var screen = screen(width: 100, height: 30)
        screen.showHelp = true
        let lines = screen.render().lines
        #expect(lines.contains { $0.contains("/react N 👍") })
        #expect(lines.contains { $0.contains("PgUp PgDn") })
        #expect(!lines.contains { $0.contains("Lunch at noon?") })
    }

    @Test func longInputSlidesToKeepTheCursorVisible() {
        var screen = screen(width: 30, height: 8)
        screen.input.insert(String(repeating: "abcdefghij", count: 10))
        let rendered = screen.render()
        #expect(rendered.lines[7].hasSuffix("ghij"))
        #expect(rendered.cursorColumn == 29)
        checkGeometry(rendered, width: 30, height: 8)
    }
}
