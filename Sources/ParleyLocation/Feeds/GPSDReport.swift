import Foundation

/// Reads gpsd's JSON protocol (one object per line) into waypoints: only `TPV` reports with a 2D or 3D fix.
///
/// gpsd sends `VERSION`, `DEVICES`, `WATCH`, `SKY` and other classes too; those are skipped, as are
/// TPV reports without a fix (`mode` < 2) or without a time.
public enum GPSDReport {
    /// The command that starts JSON reports: `?WATCH={"enable":true,"json":true}` and a newline.
    public static let watchCommand = "?WATCH={\"enable\":true,\"json\":true}\n"
    /// Longest report line read; gpsd's are far shorter, and a longer one is skipped.
    public static let maxLineLength = 16 * 1024

    /// The position in one line of gpsd output, or nil for anything that is not a usable fix.
    public static func waypoint(fromLine line: some Collection<UInt8>) -> Waypoint? {
        guard line.count <= maxLineLength,
              let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              object["class"] as? String == "TPV",
              let mode = (object["mode"] as? NSNumber)?.intValue, mode >= 2,
              let latitude = (object["lat"] as? NSNumber)?.doubleValue,
              let longitude = (object["lon"] as? NSNumber)?.doubleValue,
              let timeText = object["time"] as? String, let time = ISO8601Time.parse(timeText)
        else { return nil }
        // Horizontal error: eph when gpsd computes it, else the larger of the x/y estimates.
        let eph = (object["eph"] as? NSNumber)?.doubleValue
        let epx = (object["epx"] as? NSNumber)?.doubleValue, epy = (object["epy"] as? NSNumber)?.doubleValue
        let accuracy = eph ?? [epx, epy].compactMap { $0 }.max() ?? 0
        // gpsd 3.20+ reports altHAE/altMSL; older versions only alt. A 2D fix has no altitude.
        let altitude = mode >= 3 ? ((object["altMSL"] ?? object["alt"] ?? object["altHAE"]) as? NSNumber)?.doubleValue : nil
        let waypoint = Waypoint(latitude: latitude, longitude: longitude, timestamp: time, accuracy: accuracy, altitude: altitude)
        return (try? waypoint.validate()) == nil ? nil : waypoint
    }
}
