import ParleyTerminal

/// How many terminal cells text takes, and how to cut and pad it to a width.
///
/// Terminals lay out by cells, not characters: CJK ideographs and emoji take two, combining marks none.
/// Everything a peer wrote passes through `sanitized` first, so a message cannot carry escape
/// sequences that would repaint or retitle the user's terminal.
enum DisplayWidth {
    /// The cells one grapheme cluster takes (0, 1 or 2).
    static func cells(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji presentation selector (U+FE0F) turns text-style symbols such as ❤ into wide emoji.
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: return 1
        }
    }

    /// The cells a string takes.
    static func cells(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + cells($1) }
    }

    /// East Asian Wide and Fullwidth blocks (Unicode 15, the ranges terminals agree on).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` on one line with every control shown, never interpreted (`TerminalText`, the one escaper
    /// every command uses), so nothing from the network reaches the terminal as a command.
    static func sanitized(_ text: some StringProtocol) -> String {
        TerminalText.visible(text, singleLine: true)
    }

    /// The longest prefix of `text` that fits `width` cells; with `ellipsis`, a cut shows as `…`.
    static func truncated(_ text: some StringProtocol, to width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if cells(text) <= width { return String(text) }
        let room = ellipsis ? width - 1 : width
        var out = "", used = 0
        for character in text {
            let w = cells(character)
            if used + w > room { break }
            out.append(character)
            used += w
        }
        return ellipsis ? out + "…" : out
    }

    /// `text` cut to `width` cells and padded with spaces to exactly `width`.
    static func padded(_ text: some StringProtocol, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - cells(cut)))
    }

    /// `text` right-aligned in exactly `width` cells.
    static func rightAligned(_ text: some StringProtocol, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return String(repeating: " ", count: max(0, width - cells(cut))) + cut
    }

    /// `text` broken into lines of at most `width` cells, at spaces where possible; a word longer
    /// than a line is split. Always at least one line.
    static func wrapped(_ text: some StringProtocol, width: Int) -> [String] {
        guard width > 0 else { return [""] }
        var lines: [String] = []
        var line = "", lineCells = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let wordCells = cells(word)
            let gap = line.isEmpty ? 0 : 1
            if lineCells + gap + wordCells <= width {
                if gap == 1 { line.append(" ") }
                line += word
                lineCells += gap + wordCells
                continue
            }
            if !line.isEmpty { lines.append(line) }
            line = ""
            lineCells = 0
            // A word wider than the line: hard-split it by cells.
            var rest = Substring(word)
            while cells(rest) > width {
                let head = truncated(rest, to: width, ellipsis: false)
                guard !head.isEmpty else { break }   // one character wider than the line: drop it
                lines.append(head)
                rest = rest.dropFirst(head.count)
            }
            line = cells(rest) <= width ? String(rest) : ""
            lineCells = cells(line)
        }
        lines.append(line)
        return lines
    }
}
