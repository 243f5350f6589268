#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// The header fields of a message or body part (RFC 5322 §2.2), unfolded, in order.
public struct MailHeaders: Sendable, Equatable {
    /// Each field's name as written and its unfolded raw value (encoded words not yet decoded).
    public private(set) var fields: [(name: String, value: String)] = []

    /// No fields: a body part that starts with its blank line (RFC 2046 defaults apply).
    public init() {}

    /// The first field named `name` (case-insensitive), raw.
    public subscript(name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every field named `name` (case-insensitive), raw, in order (`Autocrypt`, `Autocrypt-Gossip`, `Received`…).
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The first field named `name` with RFC 2047 encoded words decoded (Subject, From, To…).
    public func decoded(_ name: String) -> String? {
        self[name].map(EncodedWord.decode)
    }

    /// The parsed Content-Type, defaulting to `text/plain; charset=us-ascii` (RFC 2045 §5.2).
    public var contentType: HeaderValue {
        self["Content-Type"].map(HeaderValue.init) ?? HeaderValue("text/plain; charset=us-ascii")
    }

    /// The parsed Content-Disposition, when present.
    public var contentDisposition: HeaderValue? {
        self["Content-Disposition"].map(HeaderValue.init)
    }

    /// The Content-Transfer-Encoding, lowercased, defaulting to 7bit.
    public var transferEncoding: String {
        (self["Content-Transfer-Encoding"] ?? "7bit").trimmingSpaces().lowercased()
    }

    public static func == (lhs: MailHeaders, rhs: MailHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Splits `bytes` into header fields and the body after the first empty line.
    ///
    /// Lines may end in CRLF or LF. A field longer than `limits.maxHeaderLine` is `.headerTooLong`; a
    /// line that is neither a field nor a continuation is `.malformed` (so random bytes are refused).
    static func parse(_ bytes: ArraySlice<UInt8>, limits: MailLimits) throws -> (MailHeaders, ArraySlice<UInt8>) {
        var headers = MailHeaders()
        var current: (name: String, value: [UInt8])?
        var index = bytes.startIndex
        var first = true
        func flush() {
            if let field = current { headers.fields.append((field.name, MailHeaders.text(field.value))) }
            current = nil
        }
        while index < bytes.endIndex {
            let lineEnd = bytes[index...].firstIndex(of: 0x0A) ?? bytes.endIndex
            let next = lineEnd < bytes.endIndex ? lineEnd + 1 : lineEnd
            var line = bytes[index..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            guard line.count <= limits.maxHeaderLine else { throw MailError.headerTooLong(limit: limits.maxHeaderLine) }
            defer { first = false }
            if line.isEmpty {
                flush()
                return (headers, bytes[next...])
            }
            if line.first == 0x20 || line.first == 0x09 {
                // Folding whitespace: the line continues the previous field (RFC 5322 §2.2.3).
                guard current != nil else { throw MailError.malformed("a header continuation line without a field") }
                current?.value += line
                guard current?.value.count ?? 0 <= limits.maxHeaderLine else {
                    throw MailError.headerTooLong(limit: limits.maxHeaderLine)
                }
            } else if first, line.starts(with: Array("From ".utf8)) {
                // An mbox separator line before the first field; not part of the message.
            } else {
                flush()
                guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                      line[line.startIndex..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                    throw MailError.malformed("a header line is not a field")
                }
                current = (String(decoding: line[line.startIndex..<colon], as: UTF8.self),
                           Array(line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }))
            }
            index = next
        }
        flush()
        return (headers, bytes[bytes.endIndex...])
    }

    /// Header bytes as text: UTF-8 (RFC 6532), else Latin-1 so that no byte is lost or fatal.
    static func text(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }
}

extension MailHeaders {
    /// The header fields of a whole message (`eml`), without reading its body: what a mailbox list shows.
    public static func of(eml: [UInt8], limits: MailLimits = MailLimits()) throws -> MailHeaders {
        guard eml.count <= limits.maxBytes else { throw MailError.tooLarge(limit: limits.maxBytes) }
        return try parse(eml[...], limits: limits).0
    }
}
