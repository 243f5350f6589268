#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Comparison of secrets that takes the same time wherever the first difference is.
public enum ConstantTime {
    /// Returns whether `a` and `b` hold the same bytes, without an early exit on mismatch.
    ///
    /// Lengths are not secret here: different lengths return `false` at once.
    public static func equals<A: DataProtocol, B: DataProtocol>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) {
            difference |= x ^ y
        }
        return difference == 0
    }
}
