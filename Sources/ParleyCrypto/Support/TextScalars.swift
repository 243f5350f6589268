/// Foundation's `trimmingCharacters(in:)`, `replacingOccurrences(of:with:)` and `range(of:)` for the sets and patterns
/// Parley uses, without Foundation (ParleyCrypto, ParleyFiles and ParleyPGP stand on FoundationEssentials, which has
/// none of them). Trimming and replacing work on Unicode scalars, as Foundation's do ("\r\n" is one Character but two
/// scalars, and a "\n" inside it is trimmed, replaced and found here as there), except that a match never ends before
/// a combining mark, as in Foundation's non-literal search. `TextScalarsTests` holds each to Foundation's answers on
/// random text.
extension StringProtocol {
    /// Without spaces and tabs at either end (Foundation's `.whitespaces`, `TextScalars.isSpace`).
    public func trimmingSpaces() -> String { trimmingScalars(where: TextScalars.isSpace) }

    /// Without line breaks at either end (Foundation's `.newlines`: U+000A–U+000D, U+0085, U+2028, U+2029).
    public func trimmingNewlines() -> String { trimmingScalars(where: TextScalars.isNewline) }

    /// Without spaces, tabs and line breaks at either end (Foundation's `.whitespacesAndNewlines`).
    public func trimmingSpacesAndNewlines() -> String {
        trimmingScalars { TextScalars.isSpace($0) || TextScalars.isNewline($0) }
    }

    /// Without the scalars at either end that `drop` says to drop.
    public func trimmingScalars(where drop: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !drop($0) }), let last = scalars.lastIndex(where: { !drop($0) }) else {
            return ""
        }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first...last])
        return String(kept)
    }

    /// Every occurrence of `target` replaced by `replacement`, matched byte for byte in UTF-8 from the start, the
    /// text after a match searched again (Foundation's `replacingOccurrences(of:with:)` with no options). An empty
    /// `target` changes nothing.
    public func replacingEvery(_ target: String, with replacement: String) -> String {
        let text = Array(utf8), pattern = Array(target.utf8), substitute = Array(replacement.utf8)
        guard !pattern.isEmpty, text.count >= pattern.count else { return String(self) }
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            if text[index] == pattern[0], index + pattern.count <= text.count, text[index..<(index + pattern.count)].elementsEqual(pattern) {
                out += substitute
                index += pattern.count
            } else {
                out.append(text[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The scalar classes of Foundation's character sets that `trimmingSpaces` and friends use.
public enum TextScalars {
    /// Foundation's `CharacterSet.whitespaces` as swift-corelibs-foundation has it: tab, space, no-break space,
    /// ogham space, U+2000–U+200B (the zero width space included, a space separator in older Unicode), narrow
    /// no-break, medium mathematical and ideographic space.
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Foundation's `CharacterSet.newlines`: U+000A–U+000D, U+0085, U+2028, U+2029.
    public static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85 || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

extension Substring {
    /// Where `target` first occurs, as Foundation's `range(of:)` finds it: scalar by scalar (the "\n" of a "\r\n"
    /// is found), but never a match that a combining mark continues (a "?" with an accent on it is not a "?");
    /// optionally ignoring ASCII case (`.caseInsensitive` for the ASCII patterns Parley searches with).
    public func firstTextRange(of target: String, ignoringASCIICase: Bool = false) -> Range<String.Index>? {
        let pattern = Array(target.unicodeScalars)
        guard let head = pattern.first else { return nil }
        func same(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Bool {
            guard ignoringASCIICase, a != b, a.isASCII, b.isASCII else { return a == b }
            let letters: ClosedRange<UInt32> = 0x61...0x7A
            return letters.contains(a.value | 0x20) && (a.value | 0x20) == (b.value | 0x20)
        }
        let scalars = unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            if same(scalars[index], head) {
                var probe = index, matched = 0
                while matched < pattern.count, probe != scalars.endIndex, same(scalars[probe], pattern[matched]) {
                    probe = scalars.index(after: probe)
                    matched += 1
                }
                if matched == pattern.count, probe == scalars.endIndex || !scalars[probe].properties.isGraphemeExtend {
                    return index..<probe
                }
            }
            index = scalars.index(after: index)
        }
        return nil
    }
}
