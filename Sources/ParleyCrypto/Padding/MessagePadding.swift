#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Bucket padding that hides a message's length before it is encrypted.
///
/// Layout: `0x01 || plaintext || random bytes || padLength (u32 BE)`, where `padLength`
/// counts the random bytes. The total is the smallest of 64, 128, …, 65536 bytes that
/// fits; above 65536 it is the next multiple of 65536. See docs/FORMATS.md.
public enum MessagePadding {
    /// The marker byte that opens every padded message (format version 1).
    public static let marker: UInt8 = 0x01
    /// The smallest padded size.
    public static let smallestBucket = 64
    /// The largest power-of-two bucket; larger messages grow in steps of this size.
    public static let largestBucket = 65_536
    /// Bytes the format adds around the plaintext: the marker and the length field.
    public static let overhead = 5

    /// Why a padded buffer was refused.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The total length is not one that padding can produce.
        case impossibleLength(Int)
        /// The first byte is not the version-1 marker.
        case wrongMarker
        /// The pad length field does not fit the buffer or names a non-canonical size.
        case impossiblePadLength

        public var description: String {
            switch self {
            case .impossibleLength(let length):
                "padded message has an impossible length (\(length) bytes)"
            case .wrongMarker:
                "padded message has an unknown format marker"
            case .impossiblePadLength:
                "padded message has an impossible padding length"
            }
        }
    }

    /// The padded size for a plaintext of `length` bytes.
    public static func paddedSize(forPlaintextLength length: Int) -> Int {
        let needed = length + overhead
        if needed > largestBucket {
            let blocks = (needed + largestBucket - 1) / largestBucket
            return blocks * largestBucket
        }
        var bucket = smallestBucket
        while bucket < needed { bucket *= 2 }
        return bucket
    }

    /// Pads `plaintext`, filling the gap with bytes from `random`.
    public static func pad<D: DataProtocol>(
        _ plaintext: D, random: some RandomSource = SystemRandomSource()
    ) -> [UInt8] {
        let total = paddedSize(forPlaintextLength: plaintext.count)
        let padLength = total - plaintext.count - overhead
        var out: [UInt8] = []
        out.reserveCapacity(total)
        out.append(marker)
        out.append(contentsOf: plaintext)
        out.append(contentsOf: random.bytes(padLength))
        out.appendBigEndian(UInt32(padLength))
        return out
    }

    /// Removes padding, refusing anything `pad` could not have produced.
    public static func unpad<D: DataProtocol>(_ padded: D) throws(Error) -> [UInt8] {
        let bytes = Array(padded)
        let total = bytes.count
        guard isPossibleTotal(total) else { throw .impossibleLength(total) }
        guard bytes[0] == marker else { throw .wrongMarker }
        let padLength = bytes[(total - 4)...].reduce(0) { ($0 << 8) | Int($1) }
        guard padLength <= total - overhead else { throw .impossiblePadLength }
        let plaintextLength = total - overhead - padLength
        guard paddedSize(forPlaintextLength: plaintextLength) == total else {
            throw .impossiblePadLength
        }
        return Array(bytes[1..<(1 + plaintextLength)])
    }

    private static func isPossibleTotal(_ total: Int) -> Bool {
        guard total >= smallestBucket else { return false }
        if total > largestBucket { return total % largestBucket == 0 }
        return total & (total - 1) == 0
    }
}
