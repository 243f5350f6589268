import Foundation
import ParleyPGP
import Testing

/// `UTCTime` (the dates OpenPGP output and mail print, without Foundation's formatters) gives what Foundation's
/// `ISO8601DateFormatter` and an `en_US_POSIX` `DateFormatter` gave before it, and reads what SOP's time options take.
@Suite("UTC times")
struct UTCTimeTests {
    @Test("ISO 8601, its day and RFC 5322 for random moments from 1901 to 2105, and the edges")
    func formatsAsFoundationDid() {
        let iso = ISO8601DateFormatter()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        let mail = DateFormatter()
        mail.locale = Locale(identifier: "en_US_POSIX")
        mail.timeZone = TimeZone(identifier: "UTC")
        mail.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let edges: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 4_107_542_399, -2_208_988_800, Int64(UInt32.max)]
        let moments = edges + (0..<3_000).map { _ in Int64.random(in: -2_208_988_800...4_260_000_000) }
        for seconds in moments {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let time = UTCTime(date)
            #expect(time.iso8601 == iso.string(from: date), "\(seconds)")
            #expect(time.dayText == day.string(from: date), "\(seconds)")
            #expect(time.rfc5322 == mail.string(from: date), "\(seconds)")
        }
    }

    @Test("SOP's times: with Z or an offset, fractional seconds, a date alone; nothing else")
    func parsing() {
        #expect(UTCTime.parse("2026-11-29T10:20:30Z")?.timeIntervalSince1970 == 1_795_947_630)
        #expect(UTCTime.parse("2026-11-29T10:20:30+01:00")?.timeIntervalSince1970 == 1_795_944_030)
        #expect(UTCTime.parse("2026-11-29T10:20:30.5Z").map { Int($0.timeIntervalSince1970) } == 1_795_947_630)
        #expect(UTCTime.parse("2026-11-29")?.timeIntervalSince1970 == 1_795_910_400)
        #expect(UTCTime.parse("2026-11-29T10:20:30+0100")?.timeIntervalSince1970 == 1_795_944_030)
        #expect(UTCTime.parse("2024-02-29")?.timeIntervalSince1970 == 1_709_164_800)
        for bad in ["", "now", "yesterday", "2026-13-01", "2026-02-30", "2025-02-29", "2026-11-29T25:00:00Z", "29/11/2026",
                    "2026-11-29T10:20:30Z\u{1B}", "2026-11-29x", "2026-11-29T10:20:30", "2026-11-29T10:20:30.Z",
                    "2026-11-29T10:20:30+1:00", "2026-11-29T10:60:00Z", "２０２６-11-29", "2026-11-29T10:20:30+01:00:00"] {
            #expect(UTCTime.parse(bad) == nil, "\(bad.debugDescription)")
        }
    }
}
