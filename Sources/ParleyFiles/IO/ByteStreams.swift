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

/// A source of bytes read in caller-owned buffers, so streaming code can reuse one buffer.
public protocol ByteInput: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 only at the end of input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A sink of bytes.
public protocol ByteOutput: AnyObject {
    /// Writes every byte of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension ByteInput {
    /// Reads until `buffer` is full or the input ends; returns how many bytes were read.
    public func readFully(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    /// Reads exactly `count` bytes, or throws `truncated` when the input ends first.
    public func readExactly(_ count: Int, truncated: FileError) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = try bytes.withUnsafeMutableBytes { try readFully(into: $0) }
        guard filled == count else { throw truncated }
        return bytes
    }
}

extension ByteOutput {
    /// Writes an array's bytes.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes the bytes of a `Data`.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }
}

/// Reads an open file descriptor (a file, a pipe or standard input) without buffering of its own.
public final class FileDescriptorInput: ByteInput {
    private let descriptor: Int32

    /// Wraps `descriptor`; the caller keeps ownership and closes it.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = posixRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw FileError.io("read failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// Writes to an open file descriptor, retrying short writes.
public final class FileDescriptorOutput: ByteOutput {
    private let descriptor: Int32

    /// Wraps `descriptor`; the caller keeps ownership and closes it.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let count = posixWrite(descriptor, base, left)
            if count < 0 {
                if errno == EINTR { continue }
                // With SIGPIPE ignored (a parent that ignores it passes that on), a closed pipe is EPIPE here.
                if errno == EPIPE { throw FileError.io("the output was closed by whatever was reading it (a pipe)") }
                throw FileError.io("write failed: \(String(cString: strerror(errno)))")
            }
            left -= count
            base += count
        }
    }
}

/// Bytes in memory as an input: for tests and for prefixes already read during format detection.
public final class MemoryInput: ByteInput {
    private let bytes: [UInt8]
    private var offset = 0
    private let rest: ByteInput?

    /// Reads `bytes`, then (if given) everything from `rest`.
    public init(_ bytes: [UInt8], then rest: ByteInput? = nil) {
        self.bytes = bytes
        self.rest = rest
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if offset < bytes.count {
            let count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
            }
            offset += count
            return count
        }
        return try rest?.read(into: buffer) ?? 0
    }
}

/// Collects written bytes in memory, for tests.
public final class MemoryOutput: ByteOutput {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}

/// `read(2)`, named apart from the protocol's `read(into:)`.
private func posixRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, base, count)
    #else
    Darwin.read(descriptor, base, count)
    #endif
}

/// `write(2)`, named apart from the protocol's `write(_:)`.
private func posixWrite(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, base, count)
    #else
    Darwin.write(descriptor, base, count)
    #endif
}
