#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ParleyCrypto

/// Renders an HTML mail body as safe plain text. Nothing is ever fetched: there is no network code
/// here at all. Scripts, styles and the head are dropped, images become their alt text, links are
/// written `text <url>`, and entities are decoded.
public enum HTMLText {
    /// Elements whose whole content is dropped, not shown.
    static let dropped: Set<String> = ["script", "style", "head", "title", "template", "noscript", "object", "iframe", "svg"]
    /// Elements that start a new line.
    static let blocks: Set<String> = [
        "p", "div", "br", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "hr", "section", "article", "header", "footer", "dt", "dd",
    ]

    /// The text of `html`.
    public static func render(_ html: String) -> String {
        var out = ""
        var scalars = Substring(html)
        var link: (href: String, textOffset: Int)?
        while let open = scalars.firstIndex(of: "<") {
            out += collapse(decodeEntities(scalars[..<open]))
            let tagText = scalars[open...]
            if tagText.hasPrefix("<!--") {
                // Comments end at -->, or run to the end of the document.
                guard let end = tagText.firstTextRange(of: "-->") else { scalars = ""; break }
                scalars = tagText[end.upperBound...]
                continue
            }
            guard let close = tagText.firstIndex(of: ">") else { scalars = ""; break }
            let tag = Tag(tagText[tagText.index(after: open)..<close])
            scalars = tagText[tagText.index(after: close)...]
            if !tag.closing, dropped.contains(tag.name) {
                // Skip to the matching close tag (case-insensitive); unclosed means the rest is dropped.
                if let end = scalars.firstTextRange(of: "</\(tag.name)", ignoringASCIICase: true) {
                    let after = scalars[end.upperBound...]
                    scalars = after.firstIndex(of: ">").map { after[after.index(after: $0)...] } ?? ""
                } else {
                    scalars = ""
                }
                continue
            }
            if blocks.contains(tag.name), !out.isEmpty, !out.hasSuffix("\n") { out += "\n" }
            if tag.name == "li", !tag.closing { out += "- " }
            if tag.name == "img", let alt = tag.attributes["alt"], !alt.isEmpty { out += "[\(alt)]" }
            if tag.name == "a" {
                if !tag.closing, let href = tag.attributes["href"] {
                    link = (href, out.utf8.count)
                } else if tag.closing, let current = link {
                    let text = String(decoding: out.utf8.dropFirst(current.textOffset), as: UTF8.self).trimmingSpaces()
                    if text != current.href { out += " <\(current.href)>" }
                    link = nil
                }
            }
        }
        out += collapse(decodeEntities(scalars))
        return tidy(out)
    }

    /// Line breaks in the HTML source are spaces; only elements break lines.
    private static func collapse(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\t" ? " " : $0 })
    }

    /// Collapses runs of spaces and blank lines the way a browser collapses whitespace.
    private static func tidy(_ text: String) -> String {
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            let joined = words.joined(separator: " ")
            if joined.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(joined)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
        "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
        "euro": "€", "trade": "™", "shy": "", "zwnj": "", "zwj": "",
    ]

    /// Decodes `&name;`, `&#NN;` and `&#xHH;`; unknown or invalid references stay as written.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let name = after[..<semicolon]
                var replacement: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap { Unicode.Scalar($0) }.map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap { Unicode.Scalar($0) }.map { String(Character($0)) }
                } else {
                    replacement = named[name.lowercased()]
                }
                if let replacement {
                    out += replacement
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    /// A start or end tag: its lowercased name and attributes.
    struct Tag {
        let name: String
        let closing: Bool
        let attributes: [String: String]

        init(_ text: Substring) {
            var body = text.trimmingSpacesAndNewlines()[...]
            closing = body.hasPrefix("/")
            if closing { body = body.dropFirst() }
            if body.hasSuffix("/") { body = body.dropLast() }
            let nameEnd = body.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } ?? body.endIndex
            name = body[..<nameEnd].lowercased()
            var attributes: [String: String] = [:]
            var rest = body[nameEnd...]
            while let equals = rest.firstIndex(of: "=") {
                let key = rest[..<equals].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last.map { $0.lowercased() } ?? ""
                var value = rest[rest.index(after: equals)...].drop { $0 == " " }
                let text: Substring
                if let quote = value.first, quote == "\"" || quote == "'" {
                    value = value.dropFirst()
                    let end = value.firstIndex(of: quote) ?? value.endIndex
                    text = value[..<end]
                    rest = end < value.endIndex ? value[value.index(after: end)...] : ""
                } else {
                    let end = value.firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" } ?? value.endIndex
                    text = value[..<end]
                    rest = value[end...]
                }
                if !key.isEmpty, attributes[key] == nil { attributes[key] = HTMLText.decodeEntities(text) }
            }
            self.attributes = attributes
        }
    }
}
