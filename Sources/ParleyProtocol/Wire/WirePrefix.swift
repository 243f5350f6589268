import ParleyCrypto

/// Reading and writing the `version || type` prefix every message starts with.
enum WirePrefix {
    /// Checks the size limit and the two prefix bytes, returning a reader positioned after them.
    static func open(_ bytes: [UInt8], type: MessageType, maxSize: Int) throws(ProtocolError) -> ByteReader {
        guard bytes.count <= maxSize else { throw .tooLarge }
        var reader = ByteReader(bytes)
        let version = try reader.u8()
        guard version == ProtocolConstants.version else { throw .unsupportedVersion(version) }
        let raw = try reader.u8()
        guard raw == type.rawValue else { throw .unexpectedType(raw) }
        return reader
    }

    /// The two prefix bytes for `type`.
    static func bytes(_ type: MessageType) -> [UInt8] {
        [ProtocolConstants.version, type.rawValue]
    }
}

extension ByteReader {
    /// Reads `count` bytes, reporting truncation as a protocol error.
    mutating func field(_ count: Int) throws(ProtocolError) -> [UInt8] {
        do { return try read(count) } catch { throw ProtocolError(error) }
    }

    /// Reads a big-endian u32, reporting truncation as a protocol error.
    mutating func u32() throws(ProtocolError) -> UInt32 {
        do { return try readUInt32() } catch { throw ProtocolError(error) }
    }

    /// Reads a big-endian u64, reporting truncation as a protocol error.
    mutating func u64() throws(ProtocolError) -> UInt64 {
        do { return try readUInt64() } catch { throw ProtocolError(error) }
    }

    /// Reads one byte, reporting truncation as a protocol error.
    mutating func u8() throws(ProtocolError) -> UInt8 {
        do { return try readUInt8() } catch { throw ProtocolError(error) }
    }

    /// Throws unless every byte was consumed.
    func finish() throws(ProtocolError) {
        guard isAtEnd else { throw .trailingBytes }
    }
}
