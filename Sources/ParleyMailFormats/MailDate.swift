import Foundation

/// RFC 5322 §3.3 dates as mail carries them (`Thu, 26 Nov 2026 09:14:00 +0000`; day name and seconds optional,
/// two-digit years and the obsolete zone names UT/GMT/Z read, a trailing comment such as `(UTC)` ignored), for
/// Autocrypt's effective date. Read by hand rather than by DateFormatter: a sync reads one per message.
enum MailDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
        var value = Substring(text)
        if let comment = value.firstIndex(of: "(") { value = value[..<comment] }
        if let comma = value.firstIndex(of: ",") { value = value[value.index(after: comma)...] }
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
        guard words.count == 5, let day = Int(words[0]), (1...31).contains(day),
              let month = months.firstIndex(of: words[1].lowercased()), var year = Int(words[2]) else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":")
        guard (2...3).contains(time.count), let hour = Int(time[0]), let minute = Int(time[1]),
              (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        let second = time.count == 3 ? Int(time[2]) : 0
        guard let second, (0...60).contains(second), (1900...9999).contains(year), let offset = zone(words[4]) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let utc = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(Int(utc) - offset))
    }

    /// `+hhmm` / `-hhmm` in seconds east of UTC; UT, GMT and Z are 0.
    static func zone(_ word: Substring) -> Int? {
        if ["ut", "gmt", "z", "utc"].contains(word.lowercased()) { return 0 }
        guard word.count == 5, let sign = word.first, sign == "+" || sign == "-", let digits = Int(word.dropFirst()),
              word.dropFirst().allSatisfy(\.isNumber), digits % 100 < 60 else { return nil }
        let seconds = (digits / 100) * 3600 + (digits % 100) * 60
        return sign == "-" ? -seconds : seconds
    }
}
