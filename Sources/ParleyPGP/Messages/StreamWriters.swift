import Crypto

/// A stage of the streamed encryption pipeline: bytes in, and an explicit end.
///
/// Stages pass each other pointers into their own reused buffers, valid only during the call, so a
/// chunk is copied at most once per stage and nothing is allocated per chunk.
protocol PGPSink: AnyObject {
    /// Writes `bytes` through this stage.
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// Flushes and ends this stage (and the stages after it that it owns).
    func finish() throws
}

extension PGPSink {
    /// Writes the bytes of an array through this stage.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }
}

/// Passes writes to a caller's `PGPOutput`; the end is the caller's business.
final class OutputSink: PGPSink {
    private let output: PGPOutput
    init(_ output: PGPOutput) { self.output = output }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try output.write(bytes) }
    func finish() throws {}
}

/// Writes one packet of unknown length with partial body lengths (RFC 4880 §4.2.2.4): 64 KiB chunks,
/// then a definite-length last part, so the packet never has to be held whole.
final class PartialPacketWriter: PGPSink {
    private let next: PGPSink
    /// One partial chunk being filled: its length octet, then up to `chunk` bytes of body.
    private var buffer: [UInt8]
    /// 2^16, the partial length Parley writes (0xE0 + 16).
    private static let chunkExponent = 16
    private static let chunk = 1 << chunkExponent

    init(tag: UInt8, next: PGPSink) throws {
        self.next = next
        buffer = [UInt8(0xE0 + Self.chunkExponent)]
        buffer.reserveCapacity(1 + Self.chunk)
        try next.write([0xC0 | tag])
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            if buffer.count == 1 + Self.chunk {
                // A full chunk is sent only once more bytes follow: the last part must be definite, possibly empty.
                try buffer.withUnsafeBytes { try next.write($0) }
                buffer.removeSubrange(1...)
            }
            let take = min(bytes.count - offset, 1 + Self.chunk - buffer.count)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            offset += take
        }
    }

    func finish() throws {
        try next.write(Packet.lengthHeader(buffer.count - 1))
        try buffer.withUnsafeBytes { try next.write(UnsafeRawBufferPointer(rebasing: $0[1...])) }
        buffer.removeSubrange(1...)
        try next.finish()
    }
}

/// Writes literal data as a packet stream: its header, then the content in chunks.
final class LiteralSink: PGPSink {
    private let packet: PartialPacketWriter

    init(format: UInt8, filename: [UInt8], date: UInt32, next: PGPSink) throws {
        // Signatures follow the literal packet in the same stream, so ending it must not end `next`.
        packet = try PartialPacketWriter(tag: Packet.Tag.literalData.rawValue, next: NonFinishingSink(next))
        let name = Array(filename.prefix(255))
        var header = [format, UInt8(name.count)] + name
        header.appendU32(date)
        try packet.write(header)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws { try packet.write(bytes) }
    /// Ends the literal packet only.
    func finish() throws { try packet.finish() }
}

/// Forwards to another sink but never ends it: packets written one after another into one stream.
final class NonFinishingSink: PGPSink {
    private let next: PGPSink
    init(_ next: PGPSink) { self.next = next }
    func write(_ bytes: UnsafeRawBufferPointer) throws { try next.write(bytes) }
    func finish() throws {}
}
