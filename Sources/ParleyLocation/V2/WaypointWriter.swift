/// Turns waypoints into output lines in one of the three forms `parley location` prints; a waypoint out of
/// range is refused before anything is sealed.
public enum WaypointWriter: Sendable {
    /// `{"lat":…,"lon":…,"ts":…,"acc":…}`: the v2 plaintext, for piping elsewhere.
    case plain
    /// `{"ts":…,"data":"v2:…"}`: an entry of `post_waypoints`.
    case v2(key: LocationKey, owner: UInt64, route: UInt64)
    /// `{"ts":…,"latitude":"…","longitude":"…"}`: the Berry Picker Tracker waypoint fields.
    case legacy(LegacyKey)

    /// The line for one waypoint (without the newline).
    public func line(_ waypoint: Waypoint) throws(LocationError) -> String {
        try waypoint.validate()
        switch self {
        case .plain:
            return waypoint.compactJSON
        case .v2(let key, let owner, let route):
            let data = try WaypointV2.seal(waypoint, owner: owner, routeID: route, key: key)
            return "{\"ts\":\(waypoint.timestamp),\"data\":\"\(data)\"}"
        case .legacy(let key):
            let sealed = try LegacyWaypoint.seal(waypoint, key: key)
            return "{\"ts\":\(sealed.timestamp),\"latitude\":\"\(sealed.latitude)\",\"longitude\":\"\(sealed.longitude)\"}"
        }
    }
}
