#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of bytes for streamed OpenPGP processing.
public protocol PGPInput: AnyObject {
    /// Up to `count` bytes; an empty array means the end of the input.
    func read(upTo count: Int) throws -> [UInt8]
}

/// A destination for streamed OpenPGP output.
public protocol PGPOutput: AnyObject {
    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws
    /// Writes all of `bytes`, which are valid only during the call (the streamed stages' own buffers).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension PGPOutput {
    /// Copies `bytes` into an array for outputs that only take arrays.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try write(Array(bytes))
    }
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

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}

/// An open file read as a stream.
public final class PGPFileInput: PGPInput {
    private let descriptor: Int32

    /// A stream over the open file `descriptor` (not closed by this object).
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Up to `count` bytes from the file, read straight into the returned array (no `Data` in between).
    public func read(upTo count: Int) throws -> [UInt8] {
        // Callers ask for a chunk; the cap keeps an odd huge request from allocating that much.
        let count = min(count, 1 << 20)
        guard count > 0 else { return [] }
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            // A pipe returns what it has; keep reading until `count` or the end, as `FileHandle.read` does,
            // so chunk sizes downstream do not depend on how the writer of a pipe paced itself.
            while initialized < count {
                let got = systemRead(descriptor, UnsafeMutableRawPointer(buffer.baseAddress! + initialized), count - initialized)
                if got > 0 {
                    initialized += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    throw PGPStreamIOError(operation: "read", code: errno)
                }
            }
        }
    }
}

/// An open file written as a stream.
public final class PGPFileOutput: PGPOutput {
    private let descriptor: Int32
    private let writeBackEvery: Int?
    private var written = 0
    private var writtenBack = 0

    /// A stream into the open file `descriptor` (not closed by this object). With `writeBackEvery`, each time that
    /// many more bytes were written the system is asked to start writing them to disk and not keep them
    /// cached (`posix_fadvise` DONTNEED), so a final `fsync` finds little left to wait for.
    public init(descriptor: Int32, writeBackEvery: Int? = nil) {
        self.descriptor = descriptor
        self.writeBackEvery = writeBackEvery
    }

    /// Writes `bytes` to the file.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes `bytes` to the file with write(2) directly, retrying short writes.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let wrote = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if wrote >= 0 {
                offset += wrote
            } else if errno != EINTR {
                throw PGPStreamIOError(operation: "write", code: errno)
            }
        }
        written += bytes.count
        if let writeBackEvery, written - writtenBack >= writeBackEvery {
            #if os(Linux)
            // Only advice: if the system ignores it, the final fsync simply does all the work.
            _ = posix_fadvise(descriptor, off_t(writtenBack), off_t(written - writtenBack), Int32(POSIX_FADV_DONTNEED))
            #endif
            writtenBack = written
        }
    }
}

// Outside the classes, whose `read`/`write` methods would otherwise hide the system calls.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, buffer, count) }

/// A read or write on a stream's file failed (the message is from the system, never the data).
public struct PGPStreamIOError: Error, CustomStringConvertible {
    /// "read" or "write".
    public let operation: String
    /// The `errno` value.
    public let code: Int32

    /// What failed, for the user.
    public var description: String { "could not \(operation) the stream: \(String(cString: strerror(code)))" }
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
            } else if index == buffer.count {
                // Everything buffered was used: take the new chunk as it is rather than copying it in.
                buffer = more
                index = 0
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
        if index == 0, count >= buffer.count {
            // The whole buffer is wanted: hand it over instead of copying it.
            defer { buffer = []; index = 0 }
            return buffer
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
