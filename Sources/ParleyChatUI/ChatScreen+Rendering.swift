/// The layout: a top bar, the conversation list beside the message pane, a help bar, a notice line
/// and the input line. Pure: the same screen always gives the same lines.
extension ChatScreen {
    /// The smallest terminal the layout works in; below it the screen says so.
    static let minimumWidth = 20, minimumHeight = 6

    /// How wide the conversation list is at this terminal width (0 hides it on narrow terminals).
    static func listWidth(for width: Int) -> Int {
        if width >= 60 { return min(30, max(20, width / 4)) }
        if width >= 40 { return 14 }
        return 0
    }

    /// Lays the screen out in `width` × `height` cells.
    func render() -> RenderedScreen {
        guard width >= Self.minimumWidth, height >= Self.minimumHeight else {
            var lines = [DisplayWidth.truncated("terminal too small", to: max(width, 0))]
            lines += Array(repeating: "", count: max(0, height - 1))
            return RenderedScreen(lines: Array(lines.prefix(max(height, 0))), cursorRow: 0, cursorColumn: 0, scroll: scroll)
        }
        let bodyHeight = height - 4
        let listWidth = Self.listWidth(for: width)
        let paneWidth = listWidth > 0 ? width - listWidth - 1 : width
        let (pane, usedScroll) = paneLines(width: paneWidth, height: bodyHeight)
        let list = listWidth > 0 ? listLines(width: listWidth, height: bodyHeight) : []

        var lines = [topBar()]
        for row in 0..<bodyHeight {
            if listWidth > 0 {
                lines.append(DisplayWidth.padded(list[row], to: listWidth) + "│" + DisplayWidth.padded(pane[row], to: paneWidth))
            } else {
                lines.append(DisplayWidth.padded(pane[row], to: paneWidth))
            }
        }
        lines.append(DisplayWidth.padded(" " + Self.helpBar, to: width))
        if let notice {
            lines.append(DisplayWidth.padded(" ! " + DisplayWidth.sanitized(notice), to: width))
        } else {
            lines.append(String(repeating: "─", count: width))
        }
        // The input line keeps its last cell free so writing it never scrolls the terminal.
        let shown = input.visible(width: width - 2)
        lines.append("> " + shown.text)
        return RenderedScreen(lines: lines, cursorRow: height - 1, cursorColumn: 2 + shown.cursorCell, scroll: usedScroll)
    }

    /// " Parley · ann@example.org" on the left, the connection indicator on the right.
    func topBar() -> String {
        let indicator: String = switch link {
        case .connecting: "◌ connecting "
        case .connected: "● connected "
        case .reconnecting(let attempt): "◌ reconnecting (\(attempt)) "
        case .offline: "○ offline "
        }
        let room = width - DisplayWidth.cells(indicator)
        guard room > 0 else { return DisplayWidth.truncated(indicator, to: width) }
        return DisplayWidth.padded(" Parley · " + DisplayWidth.sanitized(account), to: room) + indicator
    }

    /// The conversation list: favourites first (the caller orders), the open one marked with ▶, scrolled
    /// so the open one is always visible.
    func listLines(width: Int, height: Int) -> [String] {
        var lines = [DisplayWidth.padded(" Conversations", to: width)]
        if conversations.isEmpty {
            lines += [" (none yet)", " /open EMAIL"].map { DisplayWidth.padded($0, to: width) }
        } else {
            let rows = height - 1
            let selected = conversations.firstIndex { $0.id == selectedID } ?? 0
            let first = min(max(0, selected - rows + 1), max(0, conversations.count - rows))
            for row in conversations.dropFirst(first).prefix(rows) {
                lines.append(listRow(row, width: width))
            }
        }
        return (lines + Array(repeating: "", count: max(0, height - lines.count))).prefix(height).map { $0 }
    }

    /// `▶★● ✓ name      3`: selection, favourite, presence, trust shield, name, unread count.
    func listRow(_ row: ConversationRow, width: Int) -> String {
        let marks = (row.id == selectedID ? "▶" : " ") + (row.favourite ? "★" : " ")
            + (row.online.map { $0 ? "●" : "○" } ?? " ")
            + DisplayWidth.padded(row.shield ?? "", to: 1) + " "
        let unread = row.unread > 0 ? " " + (row.unread > 99 ? "99+" : String(row.unread)) : ""
        let nameWidth = width - DisplayWidth.cells(marks) - DisplayWidth.cells(unread)
        guard nameWidth > 0 else { return DisplayWidth.truncated(marks + unread, to: width) }
        return marks + DisplayWidth.padded(DisplayWidth.sanitized(row.name), to: nameWidth) + unread
    }

    /// The message pane: a title line, then the newest messages that fit (or the help, or an empty state).
    func paneLines(width: Int, height: Int) -> (lines: [String], scroll: Int) {
        var title = selectedID == nil && !locked ? " No conversation open" : " " + DisplayWidth.sanitized(self.title)
        let body = height - 1
        var content: [String]
        var usedScroll = 0
        if locked {
            content = [" The vault is locked (idle for a while, or /lock): nothing decrypted is in memory.",
                       " Type your vault PIN and press Enter to go on; Ctrl-C quits."]
            content = Array(content.flatMap { DisplayWidth.wrapped($0, width: width) }.prefix(body))
        } else if showHelp {
            content = [" Commands"] + ChatInput.usage.map { "  " + $0 } + ["", " Keys"] + Self.keyHelp.map { "  " + $0 }
            content = content.flatMap { DisplayWidth.wrapped($0, width: width) }
            content = Array(content.prefix(body))
        } else if selectedID == nil {
            content = conversations.isEmpty
                ? [" No conversations yet.", " Start one with /open EMAIL,", " or wait for someone to write."]
                : [" Pick a conversation with Tab."]
        } else if messages.isEmpty {
            content = [" No messages yet: type below and press Enter."]
        } else {
            let all = messages.flatMap { messageLines($0, width: width) }
            usedScroll = min(max(0, scroll), max(0, all.count - body))
            let end = all.count - usedScroll
            content = Array(all[max(0, end - body)..<end])
            if usedScroll > 0 { title += "  ↑ \(usedScroll) lines up (PgDn)" }
            // Bottom-align: the newest message sits just above the help bar, as in every chat.
            content = Array(repeating: "", count: max(0, body - content.count)) + content
        }
        let lines = [DisplayWidth.truncated(title, to: width)] + content + Array(repeating: "", count: max(0, body - content.count))
        return (lines.map { DisplayWidth.truncated($0, to: width) }, usedScroll)
    }
}
