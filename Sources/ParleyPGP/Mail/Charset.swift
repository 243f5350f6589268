#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The character sets mail text is decoded from: UTF-8, US-ASCII, ISO-8859-1 and Windows-1252.
/// Anything else is reported as an unsupported charset, never guessed.
public enum Charset {
    /// The charset names (lowercased, with common aliases) that `decode` understands.
    public static let supported: Set<String> = [
        "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1",
        "windows-1252", "cp1252", "x-cp1252",
    ]

    /// Decodes `bytes` in `charset`, or nil when the charset is not supported. Invalid sequences
    /// become U+FFFD rather than failing: a wrongly labelled mail should still be readable.
    public static func decode(_ bytes: [UInt8], charset: String) -> String? {
        switch charset.lowercased().trimmingSpaces() {
        case "utf-8", "utf8":
            return String(decoding: bytes, as: UTF8.self)
        case "us-ascii", "ascii":
            return String(String.UnicodeScalarView(bytes.map { $0 < 0x80 ? Unicode.Scalar($0) : "\u{FFFD}" }))
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1":
            return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case "windows-1252", "cp1252", "x-cp1252":
            return String(String.UnicodeScalarView(bytes.map(windows1252)))
        default:
            return nil
        }
    }

    /// Windows-1252 is ISO-8859-1 except 0x80–0x9F, where it has printable characters (€, curly quotes…).
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        // The five bytes Windows-1252 leaves undefined decode as U+FFFD.
        let table: [UInt32] = [
            0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
            0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
        ]
        return Unicode.Scalar(table[Int(byte - 0x80)]) ?? "\u{FFFD}"
    }
}
