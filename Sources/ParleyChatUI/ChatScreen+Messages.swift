/// How one message becomes lines of the message pane.
extension ChatScreen {
    /// The glyphs of the delivery ticks.
    static func glyph(_ tick: Tick) -> String {
        switch tick {
        case .sent: "✓"
        case .delivered: "✓✓"
        case .read: "✓✓ read"
        }
    }

    /// A message as pane lines:
    ///
    ///     ┌ ↪ bob: the quoted first line…
    ///     #12 10:42 ann: the text, wrapped under itself
    ///                    when it is long 📌 ✓✓
    ///       📎 photo.jpg (image/jpeg, 1.2 MB)
    ///       👍 2  ❤️ 1
    func messageLines(_ message: MessageRow, width: Int) -> [String] {
        if message.event {
            return DisplayWidth.wrapped("· \(message.time) " + DisplayWidth.sanitized(message.text), width: width)
        }
        var lines: [String] = []
        if let quote = message.quote {
            lines.append(DisplayWidth.truncated(" ┌ ↪ " + Self.firstLine(quote), to: width))
        }
        let prefix = "#\(message.id) \(message.time) \(DisplayWidth.truncated(DisplayWidth.sanitized(message.sender), to: 24)): "
        var text: String
        if message.deleted {
            text = "(deleted)"
        } else if message.undecryptable {
            text = "(could not decrypt — asked the sending device to send it again)"
        } else {
            text = DisplayWidth.sanitized(message.text)
        }
        if message.pinned { text += " 📌" }
        if let tick = message.tick { text += " " + Self.glyph(tick) }
        let prefixCells = DisplayWidth.cells(prefix)
        // A hanging indent keeps long messages readable; on a narrow pane it would leave no room.
        if width - prefixCells >= 12 {
            let wrapped = DisplayWidth.wrapped(text, width: width - prefixCells)
            let indent = String(repeating: " ", count: prefixCells)
            lines += wrapped.enumerated().map { ($0.offset == 0 ? prefix : indent) + $0.element }
        } else {
            lines += DisplayWidth.wrapped(prefix + text, width: width)
        }
        if let attachment = message.attachment, !message.deleted {
            lines.append(DisplayWidth.truncated("  📎 " + DisplayWidth.sanitized(attachment), to: width))
        }
        if !message.reactions.isEmpty, !message.deleted {
            let reactions = message.reactions.map { "\(DisplayWidth.sanitized($0.emoji)) \($0.count)" }.joined(separator: "  ")
            lines.append(DisplayWidth.truncated("  " + reactions, to: width))
        }
        return lines
    }

    /// The first line of a text, sanitized (a quote shows only that).
    static func firstLine(_ text: String) -> String {
        DisplayWidth.sanitized(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }
}
