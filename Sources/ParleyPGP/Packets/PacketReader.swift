import ParleyCrypto

/// A bounds-checked cursor over an OpenPGP packet body: ParleyCrypto's `ByteReader` (the one cursor every Parley
/// decoder reads through) with OpenPGP's field shapes — 16-bit lengths as `Int`, MPIs — and its errors as
/// `PGPError.malformed`, so a field that runs past the end of its packet throws instead of trapping.
struct PacketReader {
    /// The whole body (for callers that keep the bytes of what they read).
    let bytes: [UInt8]
    private var cursor: ByteReader

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        cursor = ByteReader(bytes)
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.init(Array(bytes))
    }

    var offset: Int { cursor.offset }
    var remaining: Int { cursor.remaining }
    var isAtEnd: Bool { cursor.isAtEnd }

    private static let pastTheEnd = PGPError.malformed("field runs past the end of its packet")

    mutating func u8() throws -> UInt8 {
        do { return try cursor.readUInt8() } catch { throw Self.pastTheEnd }
    }

    mutating func u16() throws -> Int {
        Int(try u8()) << 8 | Int(try u8())
    }

    mutating func u32() throws -> UInt32 {
        do { return try cursor.readUInt32() } catch { throw Self.pastTheEnd }
    }

    mutating func take(_ count: Int) throws -> [UInt8] {
        do { return try cursor.read(count) } catch { throw Self.pastTheEnd }
    }

    mutating func rest() -> [UInt8] {
        cursor.readRest()
    }

    /// A multiprecision integer (RFC 4880 §3.2): a 16-bit bit count then the big-endian magnitude.
    mutating func mpi() throws -> [UInt8] {
        let bits = try u16()
        return try take((bits + 7) / 8)
    }
}
