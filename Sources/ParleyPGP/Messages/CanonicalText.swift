/// The form a cleartext signature signs (RFC 4880 §7.1), made as the text streams past: each line
/// without its trailing spaces and tabs, lines joined by CRLF, nothing after the last line.
///
/// Fed the pieces and ends of lines (`TextLineScanner`), it passes the canonical bytes to `emit`.
/// Trailing whitespace is held back until the line goes on or ends, so memory is bounded by the
/// longest run of spaces and tabs, not by the text.
struct CanonicalText {
    /// Lines started so far.
    private(set) var lines = 0
    /// Whether a line was started and has not ended.
    private(set) var inLine = false
    private var heldWhitespace: [UInt8] = []

    /// Adds bytes of the current line (starting it if needed).
    mutating func add(_ bytes: ArraySlice<UInt8>, emit: (ArraySlice<UInt8>) throws -> Void) rethrows {
        try startLine(emit: emit)
        guard let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
            heldWhitespace.append(contentsOf: bytes)
            return
        }
        if !heldWhitespace.isEmpty {
            try emit(heldWhitespace[...])
            heldWhitespace.removeAll(keepingCapacity: true)
        }
        try emit(bytes[...last])
        heldWhitespace.append(contentsOf: bytes[(last + 1)...])
    }

    /// Ends the current line (starting an empty one if none is open); its trailing whitespace is dropped.
    mutating func endLine(emit: (ArraySlice<UInt8>) throws -> Void) rethrows {
        try startLine(emit: emit)
        heldWhitespace.removeAll(keepingCapacity: true)
        inLine = false
    }

    private mutating func startLine(emit: (ArraySlice<UInt8>) throws -> Void) rethrows {
        guard !inLine else { return }
        if lines > 0 { try emit([0x0D, 0x0A][...]) }
        lines += 1
        inLine = true
    }
}
