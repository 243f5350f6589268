/// Writing OpenPGP fields: MPIs, big-endian lengths, fixed-size magnitudes.
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
