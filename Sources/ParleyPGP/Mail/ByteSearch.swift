#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finding ASCII text in raw bytes (a whole mail, up to tens of MiB) without decoding them as a string first;
/// the mail reader and the mail store's summaries both search this way (Foundation's generic `firstRange` took
/// 16 % of a sync's time).
public enum ByteSearch {
    /// Whether `needle` occurs in `bytes` exactly: the C library's `memchr` finds each candidate's first byte and
    /// `memcmp` compares the rest.
    public static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard let first = needle.first else { return true }
        guard let start = bytes.baseAddress, bytes.count >= needle.count else { return false }
        let last = bytes.count - needle.count
        return needle.withUnsafeBytes { wanted in
            var offset = 0
            while offset <= last, let hit = memchr(start + offset, Int32(first), last - offset + 1) {
                let index = start.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, wanted.baseAddress!, needle.count) == 0 { return true }
                offset = index + 1
            }
            return false
        }
    }

    /// `contains(_:_:)` over an array.
    public static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        bytes.withUnsafeBytes { contains($0, needle) }
    }

    /// Whether `needle` (ASCII) occurs in `bytes`, letters in either case. The search jumps between occurrences of
    /// `anchor`, a byte of the needle that has no case, and compares the window around each.
    static func containsIgnoringASCIICase(_ bytes: UnsafeRawBufferPointer, _ needle: String, anchor: UInt8) -> Bool {
        let needle = Array(needle.lowercased().utf8)
        guard let offset = needle.firstIndex(of: anchor), let base = bytes.baseAddress else { return false }
        var from = offset
        while from < bytes.count, let found = memchr(base + from, Int32(anchor), bytes.count - from) {
            let at = base.distance(to: UnsafeRawPointer(found))
            let start = at - offset
            if start + needle.count <= bytes.count,
               needle.indices.allSatisfy({ Self.lowercased(bytes[start + $0]) == needle[$0] }) {
                return true
            }
            from = at + 1
        }
        return false
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
