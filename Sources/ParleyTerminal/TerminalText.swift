/// Text from the network or a file, made inert before it reaches a terminal.
///
/// Every string another person wrote (messages, names, titles, file names, mail subjects and bodies, key user
/// IDs) can carry control characters: ESC starts sequences that clear the screen, set the window title or
/// colour text; CR returns to the line start and lets a message overwrite its own sender; bidirectional
/// overrides reorder what follows. This is the one place that turns them into visible marks: C0 controls and
/// DEL become their Unicode control pictures (`␛`, `␍`, `␇`, `␡`), C1 controls, bidi controls and line
/// separators become `<U+XXXX>`. Nothing is dropped, so a reader sees that something was there.
/// The command line's writers (`Console`) and the full-screen chat (`DisplayWidth.sanitized`) both use it.
public enum TerminalText {
    /// `text` with every control shown, never interpreted. Newlines and tabs stay (a CR before a newline is a
    /// line ending and goes quietly) unless `singleLine`, which turns them and CR into spaces for one-line cells
    /// such as the chat's panes.
    public static func visible(_ text: some StringProtocol, singleLine: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var out = String.UnicodeScalarView()
        var pendingCR = false
        for scalar in text.unicodeScalars {
            if pendingCR {
                pendingCR = false
                if scalar != "\n" { out.append(contentsOf: shown("\r").unicodeScalars) }
            }
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            switch (scalar, singleLine) {
            case ("\n", false), ("\t", false): out.append(scalar)
            case ("\r", false): pendingCR = true
            case ("\n", true), ("\t", true), ("\r", true): out.append(" ")
            default: out.append(contentsOf: shown(scalar).unicodeScalars)
            }
        }
        if pendingCR { out.append(contentsOf: shown("\r").unicodeScalars) }
        return String(out)
    }

    /// A name someone chose (a display name, a group title, a file name) on one line, with what would hide in it
    /// shown too: invisible characters (zero-width space and joiners, word joiner, soft hyphen, byte-order mark,
    /// Hangul fillers, tag characters) and spaces other than the plain one (no-break, en, em, ideographic…), so
    /// "Ann" and "Ann" followed by a no-break space do not look alike. Message text keeps them (some scripts need
    /// zero-width characters, and emoji their joiner); names do not.
    public static func name(_ text: some StringProtocol) -> String {
        let line = visible(text, singleLine: true)
        guard line.unicodeScalars.contains(where: hidesInName) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            if hidesInName(scalar) { out.append(contentsOf: shown(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Whether a scalar is invisible, or a space other than U+0020, and so could make one name pass for another.
    public static func hidesInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00A0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true   // spaces other than the plain one
        case 0x00AD, 0x034F, 0x180E, 0x200B...0x200D, 0x2060...0x2064, 0xFEFF: true   // soft hyphen, joiners, ZWSP, BOM
        case 0x115F, 0x1160, 0x3164, 0xFFA0: true                                   // Hangul fillers (blank letters)
        case 0xE0000...0xE007F: true                                                // tag characters
        default: false
        }
    }

    /// How one escaped scalar is shown.
    private static func shown(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00...0x1F: String(Character(Unicode.Scalar(0x2400 + scalar.value)!))   // ␀ … ␟, ␛ for ESC
        case 0x7F: "\u{2421}"                                                          // ␡
        default: "<U+\(String(scalar.value, radix: 16, uppercase: true))>"
        }
    }

    /// Whether a scalar could act on a terminal or reorder the line instead of being shown.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true                   // C0, DEL, C1 (0x9B is a one-byte CSI)
        case 0x061C, 0x200E, 0x200F: true                     // Arabic letter mark, LRM, RLM
        case 0x202A...0x202E, 0x2066...0x2069: true           // bidi embeddings, overrides and isolates
        case 0x2028, 0x2029: true                             // line and paragraph separators
        default: false
        }
    }

    /// JSON text with every control spelled as a `\\uXXXX` escape: the same JSON to a parser, inert on a terminal.
    /// (JSONEncoder escapes C0 controls but writes C1 and bidi controls as they are.) Valid because outside
    /// strings compact JSON holds no such scalar.
    public static func jsonSafe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `visible`, with each line after the first indented, so a multi-line message cannot pass its own lines
    /// off as other messages.
    public static func indentedLines(_ text: some StringProtocol, indent: String = "    ") -> String {
        visible(text).replacing("\n", with: "\n" + indent)
    }
}
