#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A cursor over bytes that reads fixed-size fields and never traps on short input.
///
/// Every decoder in Parley reads through this type so that truncated input always
/// becomes a thrown `ByteReader.Error.truncated` instead of an out-of-bounds crash.
public struct ByteReader: Sendable {
    /// The reader ran out of bytes before a field was complete.
    public enum Error: Swift.Error, Equatable, Sendable {
        case truncated
    }

    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset: Int

    /// Creates a reader positioned at the first byte of `data`.
    public init<D: DataProtocol>(_ data: D) {
        self.bytes = Array(data)
        self.offset = 0
    }

    /// How many bytes are left to read.
    public var remaining: Int { bytes.count - offset }

    /// Whether every byte has been consumed.
    public var isAtEnd: Bool { offset == bytes.count }

    /// Reads exactly `count` bytes.
    public mutating func read(_ count: Int) throws(Error) -> [UInt8] {
        guard count >= 0, count <= remaining else { throw .truncated }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// Reads one byte.
    public mutating func readUInt8() throws(Error) -> UInt8 {
        guard remaining >= 1 else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads a big-endian unsigned 32-bit integer.
    public mutating func readUInt32() throws(Error) -> UInt32 {
        let raw = try read(4)
        return raw.reduce(0) { ($0 << 8) | UInt32($1) }
    }

    /// Reads a big-endian unsigned 64-bit integer.
    public mutating func readUInt64() throws(Error) -> UInt64 {
        let raw = try read(8)
        return raw.reduce(0) { ($0 << 8) | UInt64($1) }
    }

    /// Reads every byte that is left.
    public mutating func readRest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }
}
