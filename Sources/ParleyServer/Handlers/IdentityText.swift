import Foundation
import ParleyWire

/// Names people read as identities: e-mail addresses, display names, device names. Issue 20 §5: an
/// address must look like what it is (one spelling per address, nothing hidden, nothing reordering the
/// text), and no name may carry control characters a terminal would act on.
enum IdentityText {
    /// Invisible characters that are not format characters (Cf is refused as a whole): Hangul fillers,
    /// the combining grapheme joiner, Mongolian vowel separator, Khmer inherent vowels, braille blank.
    static let invisible: Set<UInt32> = [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164, 0xFFA0]

    /// Why `scalar` has no place in an e-mail address, in plain words, or nil when it may stay.
    static func problemInAddress(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return "control characters" }
        if [0x200E, 0x200F, 0x061C].contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) {
            return "characters that reverse or reorder text (bidi controls)"
        }
        switch scalar.properties.generalCategory {
        case .format: return "invisible characters (zero-width, soft hyphen, byte-order mark and the like)"
        case .spaceSeparator, .lineSeparator, .paragraphSeparator: return "spaces"
        case .unassigned, .privateUse, .surrogate: return "unassigned or private-use characters"
        default: break
        }
        if invisible.contains(value) || (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) {
            return "invisible characters"
        }
        return nil
    }

    /// The one spelling of an e-mail address: Unicode NFC, lower-cased (the domain's case never matters,
    /// and Parley has always compared local parts without case), trimmed; or an `invalid` error saying why not.
    static func email(_ raw: String, field: String = "email") throws(WireError) -> String {
        let email = raw.trimmingCharacters(in: .whitespaces).precomposedStringWithCanonicalMapping.lowercased()
            .precomposedStringWithCanonicalMapping
        if let problem = email.unicodeScalars.lazy.compactMap(problemInAddress).first {
            throw .invalid(field, "must not contain \(problem); type the address as plain text, like name@example.org")
        }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else {
            throw .invalid(field, "must be an e-mail address like name@example.org")
        }
        return email
    }

    /// `email`, for an address registering now: also refused when one part mixes letters of scripts that look alike.
    /// Only new addresses: one registered before this rule still logs in and is still found.
    static func newEmail(_ raw: String) throws(WireError) -> String {
        let email = try email(raw)
        // Full-width letters, ligatures, superscripts and the like stand for plain characters (Unicode NFKC): such an
        // address would pass for the plain one beside it.
        let plain = email.precomposedStringWithCompatibilityMapping.lowercased()
        if plain != email {
            throw .invalid("email", "must be typed in plain characters: it holds stand-ins (full-width letters, ligatures, superscripts) for \(plain)")
        }
        if let mixed = mixedScripts(in: email) {
            throw .invalid("email", "must not mix \(mixed) letters in one part of the address, which can look alike (а and a); type it in one script, or an international domain in its xn-- form")
        }
        for part in email.split(whereSeparator: { $0 == "@" || $0 == "." }) {
            if let latin = LatinLookAlikes.reading(of: part) {
                throw .invalid("email", "must not be written only in Greek or Cyrillic letters that look Latin: \(part) reads as \(latin); an international domain may be given in its xn-- form")
            }
        }
        return email
    }

    /// The scripts whose letters look alike: Latin, Greek and Cyrillic share shapes (a/а/α, o/о/ο, p/р/ρ, e/е).
    enum LookAlikeScript: String, CaseIterable {
        case latin = "Latin", greek = "Greek", cyrillic = "Cyrillic"

        init?(_ scalar: Unicode.Scalar) {
            guard scalar.properties.isAlphabetic else { return nil }
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1D00...0x1DBF, 0x1E00...0x1EFF, 0x2C60...0x2C7F,
                 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFF21...0xFF3A, 0xFF41...0xFF5A:
                self = .latin
            case 0x370...0x3FF, 0x1F00...0x1FFF:
                self = .greek
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F:
                self = .cyrillic
            default:
                return nil
            }
        }
    }

    /// "Latin and Cyrillic" when one part of `address` (the part before `@`, or one label of the domain) mixes letters of
    /// scripts that look alike, as browsers refuse to show such a domain name as it is; nil otherwise.
    static func mixedScripts(in address: String) -> String? {
        for part in address.split(whereSeparator: { $0 == "@" || $0 == "." }) {
            let scripts = Set(part.unicodeScalars.compactMap(LookAlikeScript.init))
            guard scripts.count > 1 else { continue }
            let named = LookAlikeScript.allCases.filter(scripts.contains).map(\.rawValue)
            return named.dropLast().joined(separator: ", ") + " and " + named.last!
        }
        return nil
    }

    /// A display or device name: refused when it holds C0 or C1 control characters (escape sequences,
    /// backspaces, line breaks), which a terminal showing it would obey.
    static func name(_ value: String, field: String) throws(WireError) -> String {
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .invalid(field, "must not contain control characters (line breaks, tabs, escape sequences)")
        }
        return value
    }
}
