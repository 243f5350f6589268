extension GPXTrack {
    /// The track as a GPX 1.1 document with one `<trk>` and one `<trkseg>`.
    public var gpx: String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Parley" xmlns="http://www.topografix.com/GPX/1/1">
        <trk>

        """
        if let name { out += "<name>\(Self.escape(name))</name>\n" }
        out += "<trkseg>\n"
        for point in points {
            out += "<trkpt lat=\"\(Self.decimal(point.latitude))\" lon=\"\(Self.decimal(point.longitude))\">"
            if let elevation = point.elevation { out += "<ele>\(Self.decimal(elevation))</ele>" }
            if let time = point.time { out += "<time>\(ISO8601Time.format(time))</time>" }
            out += "</trkpt>\n"
        }
        return out + "</trkseg>\n</trk>\n</gpx>\n"
    }

    /// Shortest round-trip decimal without exponent: GPX coordinates are `xsd:decimal`, which has none.
    static func decimal(_ value: Double) -> String {
        let text = JSNumber.string(value)
        guard text.contains("e") else { return text }
        let (digits, n) = JSNumber.shortestDigits(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let body = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        if n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + body }
        return sign + body + String(repeating: "0", count: max(0, n - digits.count))
    }

    /// Escapes the five XML special characters in text and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
