import Foundation

/// A response of Berry Picker Tracker's `GET /get-users-latest-route`: `[routeId, active, [waypoints…]]`,
/// each waypoint `{route_id, latitude, longitude, mnc, ts, connection}` with encrypted coordinates.
public struct BPTRoute: Sendable, Equatable {
    /// One waypoint as the tracker's server stores it.
    public struct EncryptedWaypoint: Sendable, Equatable {
        /// Encrypted latitude (docs/FORMATS.md §13.1).
        public var latitude: String
        /// Encrypted longitude.
        public var longitude: String
        /// The time the app recorded, as the server returned it (a number or text).
        public var timestamp: String
        /// The tracker's connection field (network type), if any.
        public var connection: String?
    }

    /// The route's id on the tracker's server.
    public var routeID: String
    /// Whether the route is still being recorded.
    public var active: Bool
    /// The waypoints, in the server's order.
    public var waypoints: [EncryptedWaypoint]

    /// Largest response read (about 100,000 waypoints).
    public static let maxResponseSize = 32 << 20

    /// Parses the JSON body; anything not shaped like the tracker's answer is `.malformed`.
    public init(json data: Data) throws(LocationError) {
        guard data.count <= Self.maxResponseSize else { throw .malformed("response larger than 32 MiB") }
        guard let top = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw .malformed("response is not JSON")
        }
        guard let array = top as? [Any], array.count >= 3 else { throw .malformed("response is not [routeId, active, [waypoints]]") }
        guard let routeID = Self.text(array[0]) else { throw .malformed("routeId is not a string or number") }
        guard let list = array[2] as? [Any] else { throw .malformed("the third element is not a list of waypoints") }
        self.routeID = routeID
        active = Self.flag(array[1])
        var waypoints: [EncryptedWaypoint] = []
        waypoints.reserveCapacity(list.count)
        for (index, item) in list.enumerated() {
            guard let object = item as? [String: Any],
                  let latitude = object["latitude"] as? String, let longitude = object["longitude"] as? String
            else { throw .malformed("waypoint \(index + 1) has no encrypted latitude and longitude") }
            waypoints.append(EncryptedWaypoint(
                latitude: latitude, longitude: longitude, timestamp: object["ts"].flatMap(Self.text) ?? "",
                connection: object["connection"].flatMap(Self.text)))
        }
        self.waypoints = waypoints
    }

    /// Decrypts every waypoint; a value that does not decrypt is skipped and counted, as the app does.
    public func decrypt(with key: LegacyKey) -> (positions: [GPXTrack.Point], undecryptable: Int) {
        var points: [GPXTrack.Point] = []
        var failed = 0
        for waypoint in waypoints {
            guard let latitude = try? LegacyCipher.decryptNumber(waypoint.latitude, key: key),
                  let longitude = try? LegacyCipher.decryptNumber(waypoint.longitude, key: key),
                  (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                failed += 1
                continue
            }
            points.append(GPXTrack.Point(latitude: latitude, longitude: longitude, time: Self.milliseconds(waypoint.timestamp)))
        }
        return (points, failed)
    }

    /// A tracker timestamp as ms: numbers below 10^11 are taken as seconds, ISO 8601 text is parsed.
    static func milliseconds(_ text: String) -> Int64? {
        if let number = Double(text), number.isFinite, number >= 0, number < 1e16 {
            return number < 1e11 ? Int64(number * 1000) : Int64(number)
        }
        return ISO8601Time.parse(text)
    }

    private static func text(_ value: Any) -> String? {
        if let string = value as? String { return string }
        if let bool = value as? Bool { return bool ? "true" : "false" }
        if let number = value as? NSNumber { return JSNumber.string(number.doubleValue) }
        return nil
    }

    private static func flag(_ value: Any) -> Bool {
        if let bool = value as? Bool { return bool }
        if let number = value as? NSNumber { return number.intValue != 0 }
        if let string = value as? String { return string == "true" || string == "1" }
        return false
    }
}
