#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 2047 encoded words in header text (`=?utf-8?B?…?=`, `=?iso-8859-1?Q?…?=`).
public enum EncodedWord {
    /// Decodes every encoded word in `text`; whitespace between two adjacent encoded words is dropped
    /// (RFC 2047 §6.2). Words in unsupported charsets or with bad encodings are left as written.
    public static func decode(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        var previousWasEncoded = false
        while let start = rest.firstTextRange(of: "=?") {
            let before = rest[..<start.lowerBound]
            guard let word = parseWord(rest[start.lowerBound...]) else {
                out += before + "=?"
                previousWasEncoded = false
                rest = rest[start.upperBound...]
                continue
            }
            // Only whitespace between two encoded words: it is not part of the text.
            if !(previousWasEncoded && before.allSatisfy({ $0 == " " || $0 == "\t" })) { out += before }
            out += word.text
            previousWasEncoded = true
            rest = rest[word.end...]
        }
        return out + rest
    }

    /// One encoded word at the start of `text`: its decoded text and where it ends.
    private static func parseWord(_ text: Substring) -> (text: String, end: Substring.Index)? {
        // =?charset?encoding?encoded-text?=
        let body = text.dropFirst(2)
        guard let q1 = body.firstIndex(of: "?") else { return nil }
        let afterCharset = body[body.index(after: q1)...]
        guard let q2 = afterCharset.firstIndex(of: "?") else { return nil }
        let encodedText = afterCharset[afterCharset.index(after: q2)...]
        guard let end = encodedText.firstTextRange(of: "?=") else { return nil }
        // RFC 2231 allows a language after the charset: charset*lang.
        let charset = body[..<q1].split(separator: "*").first.map(String.init) ?? ""
        let encoding = afterCharset[..<q2].uppercased()
        let payload = encodedText[..<end.lowerBound]
        guard !payload.contains(" ") else { return nil }
        let bytes: [UInt8]?
        switch encoding {
        case "B": bytes = TransferEncoding.decodeBase64(Array(payload.utf8))
        case "Q": bytes = decodeQ(Array(payload.utf8))
        default: bytes = nil
        }
        guard let bytes, let decoded = Charset.decode(bytes, charset: charset) else { return nil }
        return (decoded, end.upperBound)
    }

    /// The "Q" encoding: quoted-printable where `_` is a space.
    private static func decodeQ(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x5F {
                out.append(0x20)
            } else if byte == 0x3D {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 2
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    /// Encodes `text` for a header as one or more UTF-8 base64 encoded words, or returns it unchanged
    /// when it is printable ASCII.
    public static func encode(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return text }
        // At most 45 bytes per word keeps each word under RFC 2047's 75 characters; split on characters.
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?utf-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }
}
