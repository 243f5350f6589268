/// JavaScript's `encodeURIComponent` and a strict decoder, the encoding both share-link kinds use.
enum URIComponent {
    /// Percent-encodes everything except `A–Z a–z 0–9 - _ . ! ~ * ' ( )`, as JavaScript does.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Decodes `%XX` escapes once; nil for a broken escape or bytes that are not UTF-8.
    static func decode(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.popFirst()!), let low = hexValue(utf8.popFirst()!) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Splits `a=1&b=2` into pairs of still-encoded names and values; empty parts are skipped.
    static func queryPairs(_ query: Substring) -> [(name: String, value: Substring)] {
        query.split(separator: "&").map { part in
            if let equals = part.firstIndex(of: "=") {
                return (String(part[..<equals]), part[part.index(after: equals)...])
            }
            return (String(part), "")
        }
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-_.!~*'()".utf8.contains(byte)
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
