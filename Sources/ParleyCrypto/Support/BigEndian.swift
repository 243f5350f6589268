#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FixedWidthInteger {
    /// The integer's bytes in network (big-endian) order.
    public var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in big-endian byte order.
    public mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        append(contentsOf: value.bigEndianBytes)
    }
}
