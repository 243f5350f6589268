import Foundation

/// The JSON bodies Berry Picker Tracker's server takes, with the fields the app sends (docs/FORMATS.md §13.6).
public enum BPTRequestBody {
    /// Most waypoints per `POST /create-waypoint`: the app sends what it has pending; a cap keeps each request small.
    public static let batchSize = 100

    /// `POST /new-user`: the app lets the server choose the id.
    public static let newUser = Data("{}".utf8)

    /// `POST /start-route`.
    public static func startRoute(userID: String) -> Data {
        Data("{\"active\":true,\"user_id\":\(JSONText.string(userID))}".utf8)
    }

    /// `POST /create-waypoint`: a JSON array of `{route_id, routeId, latitude, longitude, mnc, connection, ts}`,
    /// coordinates sealed as ``LegacyWaypoint``.
    public static func waypoints(_ waypoints: [LegacyWaypoint], routeID: String) -> Data {
        let route = JSONText.string(routeID)
        var text = "["
        for (index, waypoint) in waypoints.enumerated() {
            if index > 0 { text += "," }
            // The app spreads its waypoint after `route_id`, so both spellings of the route id go out;
            // it has no mobile network code or connection type to tell from a terminal: null, as the app sends offline.
            text += "{\"route_id\":\(route),\"routeId\":\(route),\"latitude\":\(JSONText.string(waypoint.latitude)),"
                + "\"longitude\":\(JSONText.string(waypoint.longitude)),\"mnc\":null,\"connection\":null,\"ts\":\(waypoint.timestamp)}"
        }
        return Data((text + "]").utf8)
    }
}
