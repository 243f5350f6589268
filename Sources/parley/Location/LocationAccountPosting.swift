import Foundation
import ParleyClient
import ParleyLocation
import ParleyLocationFeeds
import ParleyTerminal

extension ClientOptions {
    /// Whether the command was pointed at an account (`--home` or `--account`): location commands then talk
    /// to the account's Parley server instead of printing sealed lines.
    var namesAccount: Bool { home != nil || account != nil }
}

/// Posting positions to the account's Parley server (`post`/`replay` with `--home`), docs/CLIENT.md §11.
enum LocationAccountPosting {
    /// Refuses the options that belong to the offline forms (they seal lines themselves).
    static func checkOffline(_ seal: LocationSealOptions) throws {
        if seal.keyFile != nil || seal.legacyKeyFile != nil || seal.owner != nil {
            throw CommandFailure("with --home the account's own key seals the positions; drop --key-file, --legacy-key-file and --owner")
        }
    }

    /// Posts `waypoints` (in batches) and says where they went.
    static func post(_ waypoints: [Waypoint], route: UInt64?, options: ClientOptions) async throws {
        let result = try await options.withClient { client in
            try await client.location.post(waypoints, to: route.map { Int64(clamping: $0) })
        }
        report(result, options: options, waypoint: waypoints.count == 1 ? waypoints[0] : nil)
    }

    /// Posts each fix from gpsd as it arrives, until `count` fixes or gpsd closes.
    static func postLive(from connection: GPSDConnection, count: Int?, route: UInt64?, options: ClientOptions) async throws {
        try await options.withClient(reconnect: true) { client in
            try await connection.forEachNewFix(count: count) { waypoint in
                let result = try await client.location.post([waypoint], to: route.map { Int64(clamping: $0) })
                report(result, options: options, waypoint: waypoint)
            }
        }
    }

    private static func report(_ result: LocationPostResult, options: ClientOptions, waypoint: Waypoint? = nil) {
        options.output(["route_id": result.routeID, "stored": Int64(result.stored), "duplicates": Int64(result.duplicates),
                        "key_epoch": result.keyEpoch]) {
            let what = waypoint.map { "position \(LocationText.line($0))" } ?? "\(result.stored) position(s)"
            let skipped = result.duplicates > 0 ? " (\(result.duplicates) already there, skipped)" : ""
            return "Posted \(what) to route \(result.routeID)\(skipped); only your followers can decrypt it."
        }
    }
}

/// How positions read on a terminal.
enum LocationText {
    /// `TIME LAT LON`, then accuracy and altitude when known (ParleyLocation's `PositionText`).
    static func line(_ waypoint: Waypoint) -> String { PositionText.line(waypoint) }

    /// A route's one-line description.
    static func route(_ route: LocationRoute) -> String {
        let state = route.active ? "active" : "ended \(route.endedAt.map(ISO8601Time.format) ?? "")"
        return "route \(route.id): \(state), started \(ISO8601Time.format(route.startedAt)), \(route.waypointCount) waypoint(s)"
    }

    /// The JSON form of one point (`--json`).
    static func json(_ point: LocationPoint) -> [String: String] {
        var fields = ["waypoint_id": "\(point.waypointID)", "ts": "\(point.timestamp)"]
        if let waypoint = point.waypoint {
            fields["lat"] = JSNumber.string(waypoint.latitude)
            fields["lon"] = JSNumber.string(waypoint.longitude)
            fields["acc"] = JSNumber.string(waypoint.accuracy)
            if let altitude = waypoint.altitude { fields["alt"] = JSNumber.string(altitude) }
        } else {
            fields["problem"] = point.problem ?? "could not be decrypted"
        }
        return fields
    }
}
