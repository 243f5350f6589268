/// The addresses in an address-list header value (`Name <addr>, addr, "Last, First" <addr>`), lowercased; what
/// is not an address is left out. Enough for From, To, Cc and Reply-To as mail clients write them.
public enum MailAddresses {
    public static func parse(_ value: String?) -> [String] {
        guard let value else { return [] }
        var parts: [String] = []
        var current = "", quoted = false, angle = false
        for character in value {
            switch character {
            case "\"" where !angle: quoted.toggle(); current.append(character)
            case "<" where !quoted: angle = true; current.append(character)
            case ">" where !quoted: angle = false; current.append(character)
            case "," where !quoted && !angle: parts.append(current); current = ""
            default: current.append(character)
            }
        }
        parts.append(current)
        return parts.compactMap { part -> String? in
            let text = part.trimmingCharacters(in: .whitespacesAndNewlines)
            let address: String
            if let start = text.lastIndex(of: "<"), let end = text[start...].firstIndex(of: ">") {
                address = String(text[text.index(after: start)..<end])
            } else {
                address = text
            }
            return isAddress(address) ? address.lowercased() : nil
        }
    }

    /// `local@domain.tld` without spaces, brackets, quotes or separators.
    public static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: { $0.isWhitespace || $0.isNewline || "<>,;\"()[]\\".contains($0) })
    }
}
