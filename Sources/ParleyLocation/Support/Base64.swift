import Foundation

/// Strict base64 helpers: the formats here never accept whitespace or missing padding.
enum Base64 {
    /// Decodes standard base64 (RFC 4648 §4) with padding; nil for anything else.
    static func decodeStandard(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.count % 4 == 0,
              text.utf8.allSatisfy({ isStandardAlphabet($0) || $0 == UInt8(ascii: "=") }),
              let data = Data(base64Encoded: String(text))
        else { return nil }
        // Re-encoding must give the same text, or non-canonical padding bits slipped through.
        guard data.base64EncodedString() == text else { return nil }
        return [UInt8](data)
    }

    /// Encodes standard base64 with padding.
    static func encodeStandard(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Decodes base64url without padding (RFC 4648 §5); nil for anything else.
    static func decodeURL(_ text: some StringProtocol) -> [UInt8]? {
        guard text.utf8.allSatisfy({ isURLAlphabet($0) }), text.utf8.count % 4 != 1 else { return nil }
        var standard = String(text).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let bytes = decodeStandard(standard) else { return nil }
        return bytes
    }

    /// Encodes base64url without padding.
    static func encodeURL(_ bytes: some Sequence<UInt8>) -> String {
        encodeStandard(bytes)
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func isStandardAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"): true
        default: false
        }
    }

    private static func isURLAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
