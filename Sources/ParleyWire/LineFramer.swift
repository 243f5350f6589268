/// Splits a byte stream into newline-terminated lines, refusing any line over a limit.
///
/// A pure state machine (no I/O): the NIO handler feeds it bytes and acts on the events.
/// It never holds more than `maximumLineLength` bytes of an unfinished line, so a peer that
/// sends an endless line costs bounded memory; after `.lineTooLong` it stops producing lines.
public struct LineFramer: Sendable {
    /// What feeding bytes produced.
    public enum Event: Sendable, Equatable {
        /// A complete line, without its `\n` (and without a trailing `\r`).
        case line([UInt8])
        /// A line exceeded the limit; the connection must be closed.
        case lineTooLong
    }

    /// The default maximum line length: 1 MiB.
    public static let defaultMaximumLineLength = 1 << 20

    /// The longest line accepted, in bytes, excluding the newline; the server raises it after a login.
    public var maximumLineLength: Int
    private var partial: [UInt8] = []
    private var failed = false

    /// Creates a framer with a maximum line length.
    public init(maximumLineLength: Int = defaultMaximumLineLength) {
        precondition(maximumLineLength > 0, "maximum line length must be positive")
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes held for the unfinished line.
    public var bufferedByteCount: Int { partial.count }

    /// Feeds `bytes` and returns the events they complete, in order.
    ///
    /// The limit counts every byte before the `\n`, a trailing `\r` included.
    public mutating func feed<C: Collection<UInt8>>(_ bytes: C) -> [Event] {
        guard !failed else { return [] }
        var events: [Event] = []
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            let chunk = bytes[start..<(newline ?? bytes.endIndex)]
            guard partial.count + chunk.count <= maximumLineLength else {
                failed = true
                partial = []
                events.append(.lineTooLong)
                return events
            }
            partial.append(contentsOf: chunk)
            guard let newline else { break }
            if partial.last == 0x0D { partial.removeLast() }
            events.append(.line(partial))
            partial = []
            start = bytes.index(after: newline)
        }
        return events
    }
}
