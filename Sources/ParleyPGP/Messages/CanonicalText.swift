/// The form a cleartext signature signs (RFC 4880 §7.1), made as the text streams past: each line
/// without its trailing spaces and tabs, lines joined by CRLF, nothing after the last line.
///
/// Fed the pieces and ends of lines (`TextLineScanner`), it passes the canonical bytes to `emit` in
/// batches of about 64 KiB (a hash update per short line would cost more than the hashing), and the
/// rest on `flush`. Trailing whitespace is held back until the line goes on or ends, so memory is
/// bounded by the longest run of spaces and tabs, not by the text.
struct CanonicalText {
    /// Lines started so far.
    private(set) var lines = 0
    /// Whether a line was started and has not ended.
    private(set) var inLine = false
    private var heldWhitespace: [UInt8] = []
    private var batch: [UInt8] = []

    /// Adds bytes of the current line (starting it if needed).
    mutating func add(_ bytes: ArraySlice<UInt8>, emit: (ArraySlice<UInt8>) throws -> Void) rethrows {
        startLine()
        guard let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
            heldWhitespace.append(contentsOf: bytes)
            return
        }
        if !heldWhitespace.isEmpty {
            batch += heldWhitespace
            heldWhitespace.removeAll(keepingCapacity: true)
        }
        batch += bytes[...last]
        heldWhitespace.append(contentsOf: bytes[(last + 1)...])
        if batch.count >= PGPStream.chunkSize { try flush(emit: emit) }
    }

    /// Passes on the canonical bytes gathered so far.
    mutating func flush(emit: (ArraySlice<UInt8>) throws -> Void) rethrows {
        guard !batch.isEmpty else { return }
        try emit(batch[...])
        batch.removeAll(keepingCapacity: true)
    }

    /// Ends the current line (starting an empty one if none is open); its trailing whitespace is dropped.
    mutating func endLine() {
        startLine()
        heldWhitespace.removeAll(keepingCapacity: true)
        inLine = false
    }

    private mutating func startLine() {
        guard !inLine else { return }
        if lines > 0 { batch += [0x0D, 0x0A] }
        lines += 1
        inLine = true
    }
}
