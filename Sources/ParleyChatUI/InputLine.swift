import Foundation

/// The line being typed, its cursor, and the history of lines sent (walked with up/down).
struct InputLine: Equatable, Sendable {
    /// The text, as characters so the cursor never lands inside one.
    private(set) var characters: [Character] = []
    /// The cursor, 0…characters.count.
    private(set) var cursor = 0
    /// Lines entered before, oldest first.
    private(set) var history: [String] = []
    /// Where up/down stands in `history` (`history.count` = the line being written).
    private var historyIndex = 0
    /// The unsent line kept while browsing history.
    private var draft: [Character] = []
    /// How many lines the history keeps.
    static let historyLimit = 200
    /// The longest line accepted; a paste past it is cut (the server caps messages anyway).
    static let maximumLength = 4096

    /// The text typed so far.
    var text: String { String(characters) }

    /// Inserts typed or pasted text at the cursor.
    mutating func insert(_ text: String) {
        let room = Self.maximumLength - characters.count
        let added = Array(DisplayWidth.sanitized(text)).prefix(max(0, room))
        characters.insert(contentsOf: added, at: cursor)
        cursor += added.count
    }

    /// Deletes the character before the cursor.
    mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Deletes the word before the cursor (Ctrl-W).
    mutating func deleteWord() {
        var start = cursor
        while start > 0, characters[start - 1] == " " { start -= 1 }
        while start > 0, characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// Clears the line (Ctrl-U).
    mutating func clear() {
        characters.removeAll()
        cursor = 0
    }

    /// Moves the cursor by `offset` characters, within the line.
    mutating func move(by offset: Int) {
        cursor = min(max(0, cursor + offset), characters.count)
    }

    /// Moves the cursor to the start or the end.
    mutating func moveTo(start: Bool) {
        cursor = start ? 0 : characters.count
    }

    /// Shows the previous history entry (keeping the unsent line to come back to).
    mutating func historyUp() {
        guard historyIndex > 0 else { return }
        if historyIndex == history.count { draft = characters }
        historyIndex -= 1
        characters = Array(history[historyIndex])
        cursor = characters.count
    }

    /// Shows the next history entry, or the unsent line after the newest.
    mutating func historyDown() {
        guard historyIndex < history.count else { return }
        historyIndex += 1
        characters = historyIndex == history.count ? draft : Array(history[historyIndex])
        cursor = characters.count
    }

    /// Takes the line for sending: records it in history and leaves the input empty.
    mutating func submit() -> String {
        let line = text
        if !line.trimmingCharacters(in: .whitespaces).isEmpty, history.last != line {
            history.append(line)
            if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        }
        historyIndex = history.count
        draft = []
        clear()
        return line
    }

    /// The visible part of the line in `width` cells and the cursor's cell within it: the view slides
    /// so the cursor stays visible on long lines.
    func visible(width: Int) -> (text: String, cursorCell: Int) {
        guard width > 1 else { return ("", 0) }
        // Walk back from the cursor while the text before it still fits (linear, even for a long paste).
        var start = cursor, before = 0
        while start > 0, before + DisplayWidth.cells(characters[start - 1]) <= width - 1 {
            start -= 1
            before += DisplayWidth.cells(characters[start])
        }
        var shown = "", used = 0
        for character in characters[start...] {
            let w = DisplayWidth.cells(character)
            if used + w > width - 1 { break }   // the last cell stays free for the cursor
            shown.append(character)
            used += w
        }
        return (shown, before)
    }
}
