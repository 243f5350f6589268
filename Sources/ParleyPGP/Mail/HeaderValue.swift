#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// A structured header value such as Content-Type or Content-Disposition: a lowercased token
/// (`text/plain`, `attachment`) and parameters (RFC 2045 §5.1, with RFC 2231 continuations and charsets).
public struct HeaderValue: Sendable, Equatable {
    /// The value before the first `;`, lowercased and trimmed.
    public let value: String
    /// Parameters by lowercased name, quotes removed, RFC 2231 parts joined and percent-decoded.
    public let parameters: [String: String]

    /// Parses `raw`; unreadable parameters are skipped, never fatal.
    public init(_ raw: String) {
        var pieces = HeaderValue.split(raw)
        value = pieces.isEmpty ? "" : pieces.removeFirst().trimmingSpaces().lowercased()
        var plain: [String: String] = [:]
        var continued: [String: [(Int, String, Bool)]] = [:]
        for piece in pieces {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = piece[..<equals].trimmingSpaces().lowercased()
            var text = piece[piece.index(after: equals)...].trimmingSpaces()
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast()).replacingEvery("\\\"", with: "\"")
                    .replacingEvery("\\\\", with: "\\")
            }
            let extended = name.hasSuffix("*")
            if extended { name.removeLast() }
            // RFC 2231 continuation: name*0, name*1*, … joined in order.
            if let star = name.lastIndex(of: "*"), let number = Int(name[name.index(after: star)...]) {
                continued[String(name[..<star]), default: []].append((number, text, extended))
            } else {
                plain[name] = extended ? HeaderValue.decode2231(text, first: true) : text
            }
        }
        for (name, parts) in continued where plain[name] == nil {
            plain[name] = parts.sorted { $0.0 < $1.0 }.enumerated().map { offset, part in
                part.2 ? HeaderValue.decode2231(part.1, first: offset == 0) : part.1
            }.joined()
        }
        parameters = plain
    }

    /// The `charset` parameter, lowercased.
    public var charset: String? { parameters["charset"]?.lowercased() }

    /// Splits on `;` outside double quotes.
    static func split(_ raw: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var quoted = false, escaped = false
        for character in raw {
            if escaped { escaped = false; current.append(character); continue }
            if character == "\\" && quoted { escaped = true; current.append(character); continue }
            if character == "\"" { quoted.toggle() }
            if character == ";" && !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces
    }

    /// Decodes an RFC 2231 extended value: `charset'language'percent-encoded` (only the first part
    /// carries the charset). Unknown charsets fall back to the percent-decoded bytes as Latin-1.
    static func decode2231(_ text: String, first: Bool) -> String {
        var charset = "us-ascii"
        var encoded = Substring(text)
        if first {
            let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
            if pieces.count == 3 {
                charset = pieces[0].lowercased()
                encoded = pieces[2]
            }
        }
        var bytes: [UInt8] = []
        var iterator = Array(encoded.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == 0x25, iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
               let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return Charset.decode(bytes, charset: charset) ?? Charset.decode(bytes, charset: "iso-8859-1") ?? ""
    }
}

/// The value of an ASCII hex digit.
func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
}
