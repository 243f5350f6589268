import CZlib

/// zlib over streams: inflating a compressed data packet body as it is read, deflating one as it is
/// written. The `z_stream` lives at a fixed address because zlib keeps a pointer back to it.
final class InflatingInput: PGPInput {
    private let source: PGPInput
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: [UInt8] = []
    private var inputOffset = 0
    private var ended = false
    private var produced = 0
    private let limit: Int
    private let passthrough: Bool

    /// Reads the algorithm byte from `source` and prepares to inflate what follows.
    init(_ source: PGPInput, limit: Int) throws {
        self.source = source
        self.limit = limit
        guard let algorithm = try source.read(upTo: 1).first else { throw PGPError.malformed("empty compressed data packet") }
        let windowBits: Int32
        switch algorithm {
        case 0: windowBits = 0
        case 1: windowBits = -15
        case 2: windowBits = 15
        case 3: throw PGPError.unsupported("BZip2 compression")
        default: throw PGPError.unsupported("compression algorithm \(algorithm)")
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        if algorithm != 0, czlib_inflate_init(stream, windowBits) != Z_OK {
            stream.deallocate()
            throw PGPError.malformed("zlib could not start")
        }
        // Only now is every property set, so only from here on does deinit clean up.
        self.stream = stream
        passthrough = algorithm == 0
    }

    deinit {
        if !passthrough { inflateEnd(stream) }
        stream.deallocate()
    }

    func read(upTo count: Int) throws -> [UInt8] {
        if passthrough { return try counted(source.read(upTo: count)) }
        while !ended {
            if inputOffset == input.count {
                input = try source.read(upTo: PGPStream.chunkSize)
                inputOffset = 0
                if input.isEmpty {
                    // Some writers (old PGP, gpg's ZIP) omit the end-of-stream marker; all input used is fine.
                    ended = true
                    return []
                }
            }
            var output = [UInt8](repeating: 0, count: max(1, min(count, PGPStream.chunkSize)))
            let (status, consumed, made) = input.withUnsafeMutableBufferPointer { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_in = inputBuffer.baseAddress! + inputOffset
                    stream.pointee.avail_in = uInt(inputBuffer.count - inputOffset)
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = uInt(outputBuffer.count)
                    let status = CZlib.inflate(stream, Z_NO_FLUSH)
                    return (status, inputBuffer.count - inputOffset - Int(stream.pointee.avail_in),
                            outputBuffer.count - Int(stream.pointee.avail_out))
                }
            }
            inputOffset += consumed
            switch status {
            case Z_STREAM_END:
                ended = true
            case Z_OK, Z_BUF_ERROR:
                // No progress with input and room to spare means zlib is stuck on bad data.
                if consumed == 0 && made == 0 && inputOffset < input.count { throw PGPError.malformed("corrupt compressed data") }
            default:
                throw PGPError.malformed("corrupt compressed data")
            }
            if made > 0 { return try counted(Array(output[0..<made])) }
        }
        return []
    }

    private func counted(_ bytes: [UInt8]) throws -> [UInt8] {
        produced += bytes.count
        guard produced <= limit else { throw PGPError.malformed("compressed data expands beyond \(limit) bytes") }
        return bytes
    }
}

/// Deflates (ZLIB, algorithm 2) what is written into a compressed data packet.
final class DeflatingSink: PGPSink {
    private let next: PGPSink
    private let stream: UnsafeMutablePointer<z_stream>
    /// Reused for every call: deflate's output for one step.
    private var output = [UInt8](repeating: 0, count: PGPStream.chunkSize)

    init(next: PGPSink) throws {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_deflate_init(stream, Z_DEFAULT_COMPRESSION, 15) == Z_OK else {
            stream.deallocate()
            throw PGPError.malformed("zlib could not start")
        }
        self.stream = stream
        self.next = next
        try next.write([2])
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        try run(bytes, flush: Z_NO_FLUSH)
    }

    func finish() throws {
        try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH)
        try next.finish()
    }

    private func run(_ input: UnsafeRawBufferPointer, flush: Int32) throws {
        // zlib never writes through next_in; the mutable pointer is only what its C type asks for.
        stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        stream.pointee.avail_in = uInt(input.count)
        while true {
            let (status, made) = output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.pointee.next_out = outputBuffer.baseAddress
                stream.pointee.avail_out = uInt(outputBuffer.count)
                let status = deflate(stream, flush)
                return (status, outputBuffer.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw PGPError.malformed("zlib compression failed")
            }
            if made > 0 { try output.withUnsafeBytes { try next.write(UnsafeRawBufferPointer(rebasing: $0[0..<made])) } }
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && made < output.count) { return }
        }
    }
}
