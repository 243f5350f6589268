#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A moment written the three ways OpenPGP output and mail need, always in UTC and in English whatever the
/// machine's locale: ISO 8601 (`2026-11-29T10:20:30Z`, SOP's verification lines and `parley pgp verify`), its day
/// (`2026-11-29`, key listings) and RFC 5322 (`Sun, 29 Nov 2026 10:20:30 +0000`, a mail's Date header). Without
/// Foundation's formatters, which FoundationEssentials lacks.
public struct UTCTime: Sendable {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 is Sunday.
    public let weekday: Int

    /// `date` in UTC, to the second (rounded down).
    public init(_ date: Date) {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = Int(seconds - days * 86_400)
        (hour, minute, second) = (inDay / 3600, inDay % 3600 / 60, inDay % 60)
        weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        // Days to a civil date (Howard Hinnant's algorithm, proleptic Gregorian).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// `2026-11-29`.
    public var dayText: String { "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))" }

    /// `2026-11-29T10:20:30Z`.
    public var iso8601: String { "\(dayText)T\(clock)Z" }

    /// `Sun, 29 Nov 2026 10:20:30 +0000`.
    public var rfc5322: String {
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(days[weekday]), \(Self.digits(day, 2)) \(months[month - 1]) \(Self.digits(year, 4)) \(clock) +0000"
    }

    private var clock: String { "\(Self.digits(hour, 2)):\(Self.digits(minute, 2)):\(Self.digits(second, 2))" }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// An ISO 8601 time as SOP takes it: a date and time with `Z` or an offset (`+01:00`, `+0100`), optionally with
    /// fractional seconds, or a date alone (its midnight UTC); nil for anything else — a 25th hour, a 30 February or
    /// anything after the time, which Foundation's formatter let through, included.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, range.allSatisfy({ (0x30...0x39).contains(bytes[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(bytes[$1] - 0x30) }
        }
        guard bytes.count >= 10, bytes[4] == 0x2D, bytes[7] == 0x2D, number(0..<4) != nil,
              let month = number(5..<7), let day = number(8..<10), (1...12).contains(month), (1...31).contains(day) else { return nil }
        if bytes.count == 10 {
            guard let date = try? Date.ISO8601FormatStyle().year().month().day().parse(text),
                  UTCTime(date).dayText == text else { return nil }
            return date
        }
        guard bytes.count >= 20, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A,
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var index = 19
        if bytes[index] == 0x2E {
            index += 1
            let digits = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > digits else { return nil }
        }
        let zone = Array(bytes[index...])
        let zoneIsValid = zone == [0x5A] || (
            (zone.count == 6 || zone.count == 5) && (zone[0] == 0x2B || zone[0] == 0x2D)
            && number((index + 1)..<(index + 3)).map { $0 <= 23 } == true
            && (zone.count == 6 ? zone[3] == 0x3A && number((index + 4)..<(index + 6)).map { $0 <= 59 } == true
                                : number((index + 3)..<(index + 5)).map { $0 <= 59 } == true))
        guard zoneIsValid else { return nil }
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: bytes[19] == 0x2E)
        let dayPart = String(text.prefix(10))
        guard let date = try? style.parse(text), let midnight = try? Date.ISO8601FormatStyle().year().month().day().parse(dayPart),
              UTCTime(midnight).dayText == dayPart else { return nil }
        return date
    }
}
