/// A key press (or pasted text) read from the terminal.
enum Key: Equatable, Sendable {
    /// Printable text: one typed character, or several from a fast paste.
    case text(String)
    case enter, backspace, delete, tab, backTab, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Up/down with Ctrl or Alt held: switch conversations without leaving the input line.
    case previousConversation, nextConversation
    /// Ctrl plus a letter (`"c"` for Ctrl-C).
    case control(Character)
}

/// Turns the raw bytes of a terminal in raw mode into keys.
///
/// Bytes arrive in arbitrary pieces: an escape sequence or a UTF-8 character may be split across
/// two reads, so the decoder keeps the incomplete tail until the next `feed`. A lone ESC is only
/// known to be the Escape key when nothing follows in time: the reader calls `flush()` after a pause.
/// Garbage never stops it: unknown sequences are dropped, invalid UTF-8 becomes U+FFFD.
struct KeyDecoder: Sendable {
    /// Bytes of an unfinished sequence or character.
    private(set) var pending: [UInt8] = []
    /// The longest escape sequence kept waiting for its final byte; longer ones are garbage.
    static let maximumSequence = 32

    /// Whether an unfinished sequence waits for more bytes (the reader should flush after a pause).
    var hasPending: Bool { !pending.isEmpty }

    /// Decodes what `bytes` complete; keeps any unfinished tail.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            switch step(at: index, final: false) {
            case .key(let key, let length):
                append(key, to: &keys)
                index += length
            case .skip(let length):
                index += length
            case .incomplete:
                pending.removeFirst(index)
                return keys
            }
        }
        pending.removeAll()
        return keys
    }

    /// Decodes the unfinished tail as it stands: a lone ESC becomes `.escape`, a cut character U+FFFD.
    mutating func flush() -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            switch step(at: index, final: true) {
            case .key(let key, let length):
                append(key, to: &keys)
                index += length
            case .skip(let length):
                index += length
            case .incomplete:
                index = pending.count   // cannot happen when final; never loop forever
            }
        }
        pending.removeAll()
        return keys
    }

    /// Merges consecutive text so a paste is one key.
    private func append(_ key: Key, to keys: inout [Key]) {
        if case .text(let more) = key, case .text(let text)? = keys.last {
            keys[keys.count - 1] = .text(text + more)
        } else {
            keys.append(key)
        }
    }

    private enum Step {
        case key(Key, Int)
        case skip(Int)
        case incomplete
    }

    private func step(at index: Int, final: Bool) -> Step {
        let byte = pending[index]
        switch byte {
        case 0x1B: return escape(at: index, final: final)
        case 0x0D, 0x0A: return .key(.enter, 1)
        case 0x09: return .key(.tab, 1)
        case 0x7F, 0x08: return .key(.backspace, 1)
        case 0x01...0x1A: return .key(.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return .skip(1)
        case 0x20..<0x80: return .key(.text(String(Unicode.Scalar(byte))), 1)
        default: return utf8(at: index, final: final)
        }
    }

    /// One UTF-8 encoded scalar starting at `index`.
    private func utf8(at index: Int, final: Bool) -> Step {
        let lead = pending[index]
        let length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0
        guard length > 0, lead <= 0xF4 else { return .key(.text("\u{FFFD}"), 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            guard index + offset < pending.count else { return final ? .key(.text("\u{FFFD}"), offset) : .incomplete }
            let next = pending[index + offset]
            guard next & 0xC0 == 0x80 else { return .key(.text("\u{FFFD}"), offset) }
            value = value << 6 | UInt32(next & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return .key(.text("\u{FFFD}"), length) }
        // C1 controls arrive as two-byte UTF-8 and must not reach the screen either.
        guard !(0x80...0x9F).contains(value) else { return .skip(length) }
        return .key(.text(String(scalar)), length)
    }

    /// ESC alone, ESC [ … (CSI), ESC O x (SS3), or Alt + key.
    private func escape(at index: Int, final: Bool) -> Step {
        guard index + 1 < pending.count else { return final ? .key(.escape, 1) : .incomplete }
        let next = pending[index + 1]
        switch next {
        case UInt8(ascii: "["):
            return csi(at: index, final: final)
        case UInt8(ascii: "O"):
            guard index + 2 < pending.count else { return final ? .skip(2) : .incomplete }
            let key: Key? = switch pending[index + 2] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            default: nil
            }
            return key.map { .key($0, 3) } ?? .skip(3)
        case 0x1B:
            return .key(.escape, 1)   // ESC ESC: the first one was the key
        default:
            return .key(.escape, 1)   // Alt + key: treat as Escape, then the key itself
        }
    }

    /// ESC [ parameters… final byte (0x40–0x7E).
    private func csi(at index: Int, final: Bool) -> Step {
        var end = index + 2
        while end < pending.count {
            let byte = pending[end]
            if (0x40...0x7E).contains(byte) { break }
            guard (0x20...0x3F).contains(byte) else { return .skip(end - index) }   // not a CSI byte: drop what came before
            end += 1
            if end - index > Self.maximumSequence { return .skip(end - index) }
        }
        guard end < pending.count else { return final ? .skip(pending.count - index) : .incomplete }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        let modified = parameters.hasSuffix(";3") || parameters.hasSuffix(";5")   // Alt or Ctrl held
        let key: Key? = switch (pending[end], parameters) {
        case (UInt8(ascii: "A"), _): modified ? .previousConversation : .up
        case (UInt8(ascii: "B"), _): modified ? .nextConversation : .down
        case (UInt8(ascii: "C"), _): .right
        case (UInt8(ascii: "D"), _): .left
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
        case (UInt8(ascii: "~"), "3"): .delete
        case (UInt8(ascii: "~"), "5"): .pageUp
        case (UInt8(ascii: "~"), "6"): .pageDown
        case (UInt8(ascii: "Z"), _): .backTab
        default: nil
        }
        return key.map { .key($0, length) } ?? .skip(length)
    }
}
