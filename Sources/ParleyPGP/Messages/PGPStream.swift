import Foundation

/// A source of bytes for streamed OpenPGP processing.
public protocol PGPInput: AnyObject {
    /// Up to `count` bytes; an empty array means the end of the input.
    func read(upTo count: Int) throws -> [UInt8]
}

/// A destination for streamed OpenPGP output.
public protocol PGPOutput: AnyObject {
    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws
}

/// The size of the chunks streamed code reads, encrypts and writes: memory use is a few of these.
public enum PGPStream {
    /// 64 KiB, also the partial body length Parley writes (2^16).
    public static let chunkSize = 1 << 16
}

/// Bytes held in memory, read as a stream (the in-memory API and tests).
public final class PGPMemoryInput: PGPInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// A stream over `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Up to `count` of the remaining bytes.
    public func read(upTo count: Int) throws -> [UInt8] {
        let end = min(bytes.count, offset + count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Collects output in memory.
public final class PGPMemoryOutput: PGPOutput {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty output.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        self.bytes += bytes
    }
}

/// A file handle read as a stream.
public final class PGPFileInput: PGPInput {
    private let handle: FileHandle

    /// A stream over `handle` (not closed by this object).
    public init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Up to `count` bytes from the file.
    public func read(upTo count: Int) throws -> [UInt8] {
        guard let data = try handle.read(upToCount: count) else { return [] }
        return [UInt8](data)
    }
}

/// A file handle written as a stream.
public final class PGPFileOutput: PGPOutput {
    private let handle: FileHandle

    /// A stream into `handle` (not closed by this object).
    public init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Writes `bytes` to the file.
    public func write(_ bytes: [UInt8]) throws {
        try handle.write(contentsOf: bytes)
    }
}

/// A buffered reader with look-ahead, so packet headers can be read byte by byte cheaply.
final class BufferedInput: PGPInput {
    private let source: PGPInput
    private var buffer: [UInt8] = []
    private var index = 0
    private var atEnd = false

    init(_ source: PGPInput) {
        self.source = source
    }

    /// Makes at least `count` bytes available unless the input ends first; returns how many are.
    @discardableResult
    func fill(_ count: Int) throws -> Int {
        while buffer.count - index < count, !atEnd {
            let more = try source.read(upTo: max(PGPStream.chunkSize, count))
            if more.isEmpty {
                atEnd = true
            } else {
                if index > 0 {
                    buffer.removeFirst(index)
                    index = 0
                }
                buffer += more
            }
        }
        return buffer.count - index
    }

    /// The next `count` bytes (or fewer at the end) without consuming them.
    func peek(_ count: Int) throws -> [UInt8] {
        let available = try fill(count)
        return Array(buffer[index..<(index + min(count, available))])
    }

    /// Whether the input has no more bytes.
    func isAtEnd() throws -> Bool { try fill(1) == 0 }

    /// The next byte, or nil at the end.
    func byte() throws -> UInt8? {
        guard try fill(1) > 0 else { return nil }
        defer { index += 1 }
        return buffer[index]
    }

    /// The bytes up to the next line ending (LF, CRLF or a bare CR, as mail mangles them) without it,
    /// or what is left at the end; nil when nothing is left. Throws `.badArmor` past `maxLength` bytes.
    func line(maxLength: Int) throws -> [UInt8]? {
        var out: [UInt8] = []
        while true {
            if index == buffer.count, try fill(1) == 0 { return out.isEmpty ? nil : out }
            let end = buffer[index...].firstIndex { $0 == 0x0A || $0 == 0x0D }
            out += buffer[index..<(end ?? buffer.count)]
            guard out.count <= maxLength else { throw PGPError.badArmor("line too long") }
            guard let end else {
                index = buffer.count
                continue
            }
            index = end + 1
            // A CR and the LF after it are one ending, even when the LF comes in the next chunk:
            // counting them as two would add a blank line, which ends armor headers early.
            if buffer[end] == 0x0D, try fill(1) > 0, buffer[index] == 0x0A { index += 1 }
            return out
        }
    }

    /// Exactly `count` bytes, or `.truncated`.
    func exactly(_ count: Int) throws -> [UInt8] {
        guard try fill(count) >= count else { throw PGPError.truncated }
        defer { index += count }
        return Array(buffer[index..<(index + count)])
    }

    func read(upTo count: Int) throws -> [UInt8] {
        if index == buffer.count {
            guard !atEnd else { return [] }
            // Large reads bypass the buffer.
            let more = try source.read(upTo: count)
            if more.isEmpty { atEnd = true }
            return more
        }
        let end = min(buffer.count, index + count)
        defer { index = end }
        return Array(buffer[index..<end])
    }
}

extension PGPInput {
    /// Reads to the end, at most `limit` bytes (`.malformed` beyond), for small packets held in memory.
    func readAll(limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        while true {
            let chunk = try read(upTo: PGPStream.chunkSize)
            if chunk.isEmpty { return out }
            out += chunk
            guard out.count <= limit else { throw PGPError.malformed("packet larger than \(limit) bytes") }
        }
    }

    /// Reads and discards everything left.
    func drain() throws {
        while try !read(upTo: PGPStream.chunkSize).isEmpty {}
    }
}
