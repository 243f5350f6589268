/// JSON string literals for hand-written bodies whose byte form tests pin.
enum JSONText {
    /// `"…"` with quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 0xF, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
