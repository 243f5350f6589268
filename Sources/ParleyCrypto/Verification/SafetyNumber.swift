import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The 60-digit number two people compare to verify each other's identity keys.
///
/// It is the two parties' 30-digit fingerprints, numerically smaller first, so both
/// sides see the same number. Shown as 12 groups of 5 digits.
public struct SafetyNumber: Sendable, Hashable, CustomStringConvertible {
    /// The 60 decimal digits.
    public let digits: String

    /// Combines two fingerprints; order does not matter.
    public init(_ first: Fingerprint, _ second: Fingerprint) {
        let pair = [first.digits, second.digits].sorted()
        digits = pair[0] + pair[1]
    }

    /// The digits in groups of five separated by spaces.
    public var grouped: String { Self.group(digits) }

    public var description: String { grouped }

    static func group(_ digits: String) -> String {
        var groups: [String] = []
        var rest = Substring(digits)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(5)))
            rest = rest.dropFirst(5)
        }
        return groups.joined(separator: " ")
    }
}
