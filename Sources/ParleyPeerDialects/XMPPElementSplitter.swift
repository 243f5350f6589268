/// Cuts an XMPP stream (RFC 6120 §4) into its top-level elements: the stream header opens depth 1, and each child
/// of the stream — a stanza, features, a SASL answer — comes out whole, as the bytes from its `<` to its last `>`.
///
/// Only what the benchmark needs of XML: tags, quoted attribute values and text; a comment, a DTD or a processing
/// instruction other than the XML declaration is refused, as RFC 6120 §11.1 refuses them.
package struct XMPPElementSplitter {
    package enum Piece: Equatable {
        /// A `<stream:stream …>` header (also after a restart).
        case streamHeader
        /// A whole top-level element.
        case element([UInt8])
        /// `</stream:stream>`: the server closed the stream.
        case streamEnd
    }

    /// The largest element the benchmark accepts.
    package static let maximumElement = 1 << 20

    private var buffer: [UInt8] = []
    /// How far the buffer is read, and where the element being read began.
    private var position = 0
    private var elementStart: Int?
    /// 0 before the stream header, 1 inside the stream, deeper inside an element.
    private var depth = 0

    package mutating func feed(_ bytes: [UInt8]) throws(PeerWireError) -> [Piece] {
        buffer += bytes
        var pieces: [Piece] = []
        while let open = buffer[position...].firstIndex(of: UInt8(ascii: "<")) {
            guard let close = Self.tagEnd(in: buffer, from: open) else { break }
            let tag = buffer[open...close]
            position = close + 1
            if tag.starts(with: Array("<?xml".utf8)), buffer[close - 1] == UInt8(ascii: "?") { continue }
            if tag.dropFirst().first == UInt8(ascii: "!") || tag.dropFirst().first == UInt8(ascii: "?") {
                throw PeerWireError("the XMPP server sent a comment, a DTD or a processing instruction")
            }
            if tag.starts(with: Array("<stream:stream".utf8)) {
                depth = 1
                pieces.append(.streamHeader)
            } else if tag.starts(with: Array("</stream:stream".utf8)) {
                depth = 0
                pieces.append(.streamEnd)
            } else if tag.dropFirst().first == UInt8(ascii: "/") {
                guard depth > 1 else { throw PeerWireError("the XMPP server closed an element it never opened") }
                depth -= 1
                if depth == 1, let start = elementStart {
                    pieces.append(.element(Array(buffer[start...close])))
                    elementStart = nil
                }
            } else {
                guard depth > 0 else { throw PeerWireError("the XMPP server sent an element before its stream header") }
                if depth == 1 { elementStart = open }
                if buffer[close - 1] == UInt8(ascii: "/") {
                    if depth == 1 {
                        pieces.append(.element(Array(buffer[open...close])))
                        elementStart = nil
                    }
                } else {
                    depth += 1
                }
            }
        }
        let keep = elementStart ?? buffer[position...].firstIndex(of: UInt8(ascii: "<")) ?? buffer.count
        guard buffer.count - keep <= Self.maximumElement else { throw PeerWireError("an XMPP element over \(Self.maximumElement) bytes") }
        buffer.removeFirst(keep)
        position = max(0, position - keep)
        elementStart = elementStart.map { $0 - keep }
        return pieces
    }

    /// The `>` that ends the tag opened at `open`, outside quoted attribute values; nil when it has not come yet.
    private static func tagEnd(in buffer: [UInt8], from open: Int) -> Int? {
        var quote: UInt8?
        var index = open + 1
        while index < buffer.count {
            let byte = buffer[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }
}
