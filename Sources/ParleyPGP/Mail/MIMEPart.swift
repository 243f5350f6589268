/// One MIME entity (RFC 2045/2046): a whole message or a body part, with its children when multipart.
/// Byte ranges point into the original message, so nothing is copied and the signed part of a
/// multipart/signed message is available exactly as it was sent.
public struct MIMEPart: Sendable {
    /// The entity's header fields.
    public let headers: MailHeaders
    /// The entity exactly as it appears in the message: header fields, blank line and body.
    public let raw: ArraySlice<UInt8>
    /// The body, still transfer-encoded (for a multipart: everything after the header fields).
    public let body: ArraySlice<UInt8>
    /// The body parts of a multipart, in order (preamble and epilogue are not parts).
    public let parts: [MIMEPart]

    /// The parsed Content-Type (default `text/plain; charset=us-ascii`).
    public var contentType: HeaderValue { headers.contentType }

    /// Whether this entity is a `multipart/*`.
    public var isMultipart: Bool { contentType.value.hasPrefix("multipart/") }

    /// The body with its Content-Transfer-Encoding undone.
    public func decodedBody() throws -> [UInt8] {
        try TransferEncoding.decode(body, encoding: headers.transferEncoding)
    }

    /// The file name from Content-Disposition `filename` or Content-Type `name`, encoded words decoded.
    public var filename: String? {
        let name = headers.contentDisposition?.parameters["filename"] ?? contentType.parameters["name"]
        return name.map(EncodedWord.decode).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the part is meant as an attachment rather than as the message text.
    public var isAttachment: Bool {
        if headers.contentDisposition?.value == "attachment" { return true }
        let type = contentType.value
        return filename != nil || !(type.hasPrefix("text/") || type.hasPrefix("multipart/"))
    }
}

/// Reads MIME entities within `MailLimits`; one parser counts the parts of a whole message, including
/// messages decrypted from inside it.
struct MIMEParser {
    /// The limits applied.
    let limits: MailLimits
    /// Entities read so far.
    private(set) var partCount = 0

    init(limits: MailLimits) {
        self.limits = limits
    }

    /// Parses an entity at nesting `depth` (0 for the message itself).
    mutating func parse(_ bytes: ArraySlice<UInt8>, depth: Int) throws -> MIMEPart {
        guard bytes.count <= limits.maxBytes else { throw MailError.tooLarge(limit: limits.maxBytes) }
        guard depth <= limits.maxDepth else { throw MailError.tooDeep(limit: limits.maxDepth) }
        partCount += 1
        guard partCount <= limits.maxParts else { throw MailError.tooManyParts(limit: limits.maxParts) }
        let (headers, body) = try MailHeaders.parse(bytes, limits: limits)
        let type = headers.contentType
        guard type.value.hasPrefix("multipart/") else {
            return MIMEPart(headers: headers, raw: bytes, body: body, parts: [])
        }
        guard let boundary = type.parameters["boundary"], !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw MailError.malformed("a multipart without a usable boundary")
        }
        var parts: [MIMEPart] = []
        for range in try Self.split(body, boundary: Array(boundary.utf8)) {
            parts.append(try parse(body[range], depth: depth + 1))
        }
        return MIMEPart(headers: headers, raw: bytes, body: body, parts: parts)
    }

    /// The byte ranges of the body parts between `--boundary` delimiter lines (RFC 2046 §5.1.1). The
    /// line break before a delimiter belongs to the delimiter. A missing close delimiter ends the last
    /// part at the end of the data (mail cut short is still shown); a missing first one is `.malformed`.
    static func split(_ body: ArraySlice<UInt8>, boundary: [UInt8]) throws -> [Range<Int>] {
        let delimiter = [0x2D, 0x2D] + boundary
        var ranges: [Range<Int>] = []
        var partStart: Int?
        var lineStart = body.startIndex
        while lineStart < body.endIndex {
            let lineEnd = body[lineStart...].firstIndex(of: 0x0A) ?? body.endIndex
            let next = lineEnd < body.endIndex ? lineEnd + 1 : lineEnd
            let line = body[lineStart..<lineEnd]
            if line.starts(with: delimiter) {
                var rest = line.dropFirst(delimiter.count)
                let closing = rest.starts(with: [0x2D, 0x2D])
                if closing { rest = rest.dropFirst(2) }
                if rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                    if let start = partStart {
                        var end = lineStart
                        if end > start, body[end - 1] == 0x0A { end -= 1 }
                        if end > start, body[end - 1] == 0x0D { end -= 1 }
                        ranges.append(start..<max(start, end))
                    }
                    if closing { return ranges }
                    partStart = next
                }
            }
            lineStart = next
        }
        guard let start = partStart else { throw MailError.malformed("a multipart without its first boundary") }
        ranges.append(start..<body.endIndex)
        return ranges
    }
}
