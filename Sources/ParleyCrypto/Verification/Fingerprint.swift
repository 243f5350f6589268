import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One party's 30-digit displayable fingerprint, computed exactly as Signal computes it.
///
/// `h = SHA-512(0x0000 || key || id || key)`, then 5,199 more rounds of `h = SHA-512(h || key)`;
/// the first 30 bytes, as six 5-byte big-endian integers mod 100000, printed as 5 digits each.
/// `key` is the 33-byte encoding `0x05 || X25519 form of the identity key`.
public struct Fingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The fingerprint format version hashed in front of the key.
    public static let version: UInt16 = 0
    /// Total number of SHA-512 rounds.
    public static let iterations = 5_200

    /// The 30 decimal digits.
    public let digits: String

    /// Computes the fingerprint of a 33-byte `0x05 || X25519` key for account `id`.
    public init<D: DataProtocol>(encodedKey: D, id: String) throws(VerificationError) {
        let key = Array(encodedKey)
        guard key.count == 33, key[0] == 0x05 else { throw .invalidIdentityKey }
        var input = Self.version.bigEndianBytes + key + Array(id.utf8) + key
        var hash = Array(SHA512.hash(data: input))
        for _ in 1..<Self.iterations {
            input = hash + key
            hash = Array(SHA512.hash(data: input))
        }
        digits = (0..<6).map { chunk in
            let value = hash[(chunk * 5)..<(chunk * 5 + 5)].reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
            let number = String(value % 100_000)
            return String(repeating: "0", count: 5 - number.count) + number
        }.joined()
    }

    /// The digits in six groups of five.
    public var grouped: String { SafetyNumber.group(digits) }

    public var description: String { grouped }
}
