import Foundation

/// Finding ASCII text in raw bytes (a whole mail, up to tens of MiB) without decoding them as a string first.
enum ByteSearch {
    /// Whether `needle` occurs in `bytes` exactly: the C library's `memchr` finds each candidate's first byte and
    /// `memcmp` compares the rest.
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard let base = bytes.baseAddress, let first = needle.first else { return needle.isEmpty }
        return needle.withUnsafeBytes { wanted in
            var from = 0
            while bytes.count - from >= needle.count, let found = memchr(base + from, Int32(first), bytes.count - from) {
                let at = base.distance(to: UnsafeRawPointer(found))
                guard bytes.count - at >= needle.count else { return false }
                if memcmp(found, wanted.baseAddress!, needle.count) == 0 { return true }
                from = at + 1
            }
            return false
        }
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
