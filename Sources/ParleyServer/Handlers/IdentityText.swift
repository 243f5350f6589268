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

    /// A display or device name: refused when it holds C0 or C1 control characters (escape sequences,
    /// backspaces, line breaks), which a terminal showing it would obey.
    static func name(_ value: String, field: String) throws(WireError) -> String {
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .invalid(field, "must not contain control characters (line breaks, tabs, escape sequences)")
        }
        return value
    }
}
