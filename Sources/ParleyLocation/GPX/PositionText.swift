/// How a position reads on a terminal, one line each: time, latitude, longitude (as JavaScript writes numbers).
public enum PositionText {
    /// `TIME LAT LON`, then `±ACC m` and `alt ALT m` when known.
    public static func line(_ waypoint: Waypoint) -> String {
        var text = "\(ISO8601Time.format(waypoint.timestamp)) \(JSNumber.string(waypoint.latitude)) \(JSNumber.string(waypoint.longitude))"
        if waypoint.accuracy > 0 { text += " ±\(JSNumber.string(waypoint.accuracy)) m" }
        if let altitude = waypoint.altitude { text += " alt \(JSNumber.string(altitude)) m" }
        return text
    }

    /// `TIME LAT LON` of a track point, or `- LAT LON` when it has no usable time.
    public static func line(_ point: GPXTrack.Point) -> String {
        "\(point.time.map(ISO8601Time.format) ?? "-") \(JSNumber.string(point.latitude)) \(JSNumber.string(point.longitude))"
    }
}
