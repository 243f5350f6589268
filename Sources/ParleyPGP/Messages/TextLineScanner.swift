/// Splits a stream of bytes into lines ended by LF, CRLF or CR, handing each line over in pieces as
/// its bytes arrive, so a line of any length passes through in bounded memory. A CR at the end of one
/// chunk and an LF at the start of the next are one line ending.
struct TextLineScanner {
    private var lastWasCR = false

    /// Feeds `chunk`: `piece` receives the bytes of the current line (never empty) and `end` each line end.
    mutating func feed(_ chunk: ArraySlice<UInt8>, piece: (ArraySlice<UInt8>) throws -> Void, end: () throws -> Void) rethrows {
        var start = chunk.startIndex
        var index = start
        while index < chunk.endIndex {
            let byte = chunk[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            if index > start { try piece(chunk[start..<index]) }
            // The LF of a CRLF (whose CR may have ended the previous chunk) ends nothing more.
            let endsCRLF = byte == 0x0A && lastWasCR && index == start
            if !endsCRLF { try end() }
            lastWasCR = byte == 0x0D
            index += 1
            start = index
        }
        if index > start {
            try piece(chunk[start..<index])
            lastWasCR = false
        }
    }
}

/// Checks that a stream of bytes is UTF-8, chunk by chunk: a character cut by a chunk boundary is
/// carried over (at most three bytes) and checked with the next chunk.
struct UTF8StreamCheck {
    private var carry: [UInt8] = []

    /// Whether `chunk`, after the bytes carried over, is valid so far.
    mutating func accepts(_ chunk: [UInt8]) -> Bool {
        let bytes = carry.isEmpty ? chunk : carry + chunk
        let complete = Self.completePrefix(bytes)
        carry = Array(bytes[complete...])
        return String(validating: bytes[..<complete], as: UTF8.self) != nil
    }

    /// Whether the stream ended on a whole character.
    var endsWell: Bool { carry.isEmpty }

    /// How many leading bytes end on a character boundary: a last lead byte whose continuation bytes
    /// have not all arrived yet is left out, with them.
    static func completePrefix(_ bytes: [UInt8]) -> Int {
        var index = bytes.count
        var continuations = 0
        while index > 0, continuations < 3, bytes[index - 1] & 0xC0 == 0x80 {
            index -= 1
            continuations += 1
        }
        guard index > 0 else { return bytes.count }
        let lead = bytes[index - 1]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return length > continuations + 1 ? index - 1 : bytes.count
    }
}
