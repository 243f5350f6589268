/// A bounds-checked cursor over bytes: every read past the end throws instead of trapping.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.offset = 0
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.init(Array(bytes))
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw PGPError.malformed("field runs past the end of its packet") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws -> Int {
        Int(try u8()) << 8 | Int(try u8())
    }

    mutating func u32() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try u8()) }
        return value
    }

    mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, remaining >= count else { throw PGPError.malformed("field runs past the end of its packet") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[min(offset, bytes.count)...])
    }

    /// A multiprecision integer (RFC 4880 §3.2): a 16-bit bit count then the big-endian magnitude.
    mutating func mpi() throws -> [UInt8] {
        let bits = try u16()
        return try take((bits + 7) / 8)
    }
}

extension Array where Element == UInt8 {
    /// Appends a multiprecision integer: leading zero bytes stripped, then a bit count and the magnitude.
    mutating func appendMPI(_ magnitude: [UInt8]) {
        let trimmed = magnitude.drop(while: { $0 == 0 })
        let bits = trimmed.first.map { trimmed.count * 8 - $0.leadingZeroBitCount } ?? 0
        append(UInt8(bits >> 8 & 0xFF))
        append(UInt8(bits & 0xFF))
        append(contentsOf: trimmed)
    }

    mutating func appendU16(_ value: Int) {
        append(UInt8(value >> 8 & 0xFF))
        append(UInt8(value & 0xFF))
    }

    mutating func appendU32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(value >> UInt32(shift) & 0xFF)) }
    }

    /// Left-pads with zeros (or keeps the low bytes) to exactly `length` bytes, for fixed-size MPIs.
    func leftPadded(to length: Int) -> [UInt8] {
        count >= length ? Array(suffix(length)) : [UInt8](repeating: 0, count: length - count) + self
    }
}
