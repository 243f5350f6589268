import CZlib

/// Compressed data packets (RFC 4880 §5.6) through the system zlib: ZIP is raw deflate, ZLIB is
/// deflate with the zlib header. BZip2 is not supported.
enum Compression {
    /// Output cap: a compressed packet may not expand beyond this, so a "zip bomb" fails cleanly.
    static let defaultLimit = 1 << 30

    /// Decompresses a compressed data packet body (algorithm byte, then data).
    static func decompress(_ body: [UInt8], limit: Int = defaultLimit) throws -> [UInt8] {
        guard let algorithm = body.first else { throw PGPError.malformed("empty compressed data packet") }
        let data = Array(body[1...])
        switch algorithm {
        case 0: return data
        case 1: return try inflate(data, windowBits: -15, limit: limit)
        case 2: return try inflate(data, windowBits: 15, limit: limit)
        case 3: throw PGPError.unsupported("BZip2 compression")
        default: throw PGPError.unsupported("compression algorithm \(algorithm)")
        }
    }

    /// A ZLIB (algorithm 2) compressed data packet body for `data`.
    static func compressZlib(_ data: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        guard czlib_deflate_init(&stream, Z_DEFAULT_COMPRESSION, 15) == Z_OK else {
            throw PGPError.malformed("zlib could not start")
        }
        defer { deflateEnd(&stream) }
        var output: [UInt8] = [2]
        var input = data
        var chunk = [UInt8](repeating: 0, count: 65536)
        return try input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            var status: Int32 = Z_OK
            while status != Z_STREAM_END {
                status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return deflate(&stream, Z_FINISH)
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw PGPError.malformed("zlib compression failed")
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
            }
            return output
        }
    }

    private static func inflate(_ data: [UInt8], windowBits: Int32, limit: Int) throws -> [UInt8] {
        var stream = z_stream()
        guard czlib_inflate_init(&stream, windowBits) == Z_OK else { throw PGPError.malformed("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var input = data
        var chunk = [UInt8](repeating: 0, count: 65536)
        return try input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = uInt(inputBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = uInt(chunkBuffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else {
                    throw PGPError.malformed("compressed data expands beyond \(limit) bytes")
                }
                output += chunk[0..<produced]
                switch status {
                case Z_STREAM_END:
                    return output
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    // Some writers (old PGP, gpg's ZIP) omit the end-of-stream marker; all input used is fine.
                    return output
                default:
                    throw PGPError.malformed("corrupt compressed data")
                }
            }
        }
    }
}
