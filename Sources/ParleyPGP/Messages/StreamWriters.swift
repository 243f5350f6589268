import Crypto

/// A stage of the streamed encryption pipeline: bytes in, and an explicit end.
protocol PGPSink: AnyObject {
    /// Writes `bytes` through this stage.
    func write(_ bytes: [UInt8]) throws
    /// Flushes and ends this stage (and the stages after it that it owns).
    func finish() throws
}

/// Passes writes to a caller's `PGPOutput`; the end is the caller's business.
final class OutputSink: PGPSink {
    private let output: PGPOutput
    init(_ output: PGPOutput) { self.output = output }
    func write(_ bytes: [UInt8]) throws { try output.write(bytes) }
    func finish() throws {}
}

/// Writes one packet of unknown length with partial body lengths (RFC 4880 §4.2.2.4): 64 KiB chunks,
/// then a definite-length last part, so the packet never has to be held whole.
final class PartialPacketWriter: PGPSink {
    private let next: PGPSink
    private var buffer: [UInt8] = []
    /// 2^16, the partial length Parley writes (0xE0 + 16).
    private static let chunkExponent = 16

    init(tag: UInt8, next: PGPSink) throws {
        self.next = next
        try next.write([0xC0 | tag])
    }

    func write(_ bytes: [UInt8]) throws {
        buffer += bytes
        let chunk = 1 << Self.chunkExponent
        var offset = 0
        while buffer.count - offset > chunk {
            // Strictly more than one chunk: the last part always follows, possibly empty.
            try next.write([UInt8(0xE0 + Self.chunkExponent)] + buffer[offset..<(offset + chunk)])
            offset += chunk
        }
        if offset > 0 { buffer.removeFirst(offset) }
    }

    func finish() throws {
        try next.write(Packet.lengthHeader(buffer.count) + buffer)
        buffer = []
        try next.finish()
    }
}

/// Encrypts a SEIPD v1 body as a stream: random prefix, the data, then the MDC, in full-block CFB.
final class SEIPDEncryptingSink: PGPSink {
    private let next: PGPSink
    private var cfb: CFBStream
    private var sha1 = Insecure.SHA1()
    private var pending: [UInt8] = []

    init(sessionKey: SessionKey, next: PGPSink) throws {
        self.next = next
        cfb = CFBStream(key: sessionKey.key, encrypting: true)
        var generator = SystemRandomNumberGenerator()
        var prefix = (0..<sessionKey.algorithm.blockSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        prefix += prefix.suffix(2)
        try next.write([1])
        try write(prefix)
    }

    func write(_ bytes: [UInt8]) throws {
        sha1.update(data: bytes)
        pending += bytes
        let usable = pending.count / 16 * 16
        guard usable >= PGPStream.chunkSize || (usable > 0 && pending.count > PGPStream.chunkSize) else { return }
        try next.write(cfb.process(Array(pending[0..<usable])))
        pending.removeFirst(usable)
    }

    func finish() throws {
        sha1.update(data: [0xD3, 0x14])
        pending += [0xD3, 0x14] + Array(sha1.finalize())
        try next.write(cfb.process(pending))
        pending = []
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

    func write(_ bytes: [UInt8]) throws { try packet.write(bytes) }
    /// Ends the literal packet only.
    func finish() throws { try packet.finish() }
}

/// Forwards to another sink but never ends it: packets written one after another into one stream.
final class NonFinishingSink: PGPSink {
    private let next: PGPSink
    init(_ next: PGPSink) { self.next = next }
    func write(_ bytes: [UInt8]) throws { try next.write(bytes) }
    func finish() throws {}
}
