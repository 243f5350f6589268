import Foundation
import ParleyFiles
import ParleyLocation

/// Turns waypoints into output lines in one of the three forms `parley location` prints.
enum WaypointWriter {
    /// `{"lat":…,"lon":…,"ts":…,"acc":…}`: the v2 plaintext, for piping elsewhere.
    case plain
    /// `{"ts":…,"data":"v2:…"}`: an entry of `post_waypoints`.
    case v2(key: LocationKey, owner: UInt64, route: UInt64)
    /// `{"ts":…,"latitude":"…","longitude":"…"}`: the Berry Picker Tracker waypoint fields.
    case legacy(LegacyKey)

    /// The line for one waypoint (without the newline).
    func line(_ waypoint: Waypoint) throws -> String {
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

/// The v2 key file: the key as base64url on one line, readable by the owner only.
enum LocationKeyFile {
    static func read(_ path: String) throws -> LocationKey {
        let text = String(decoding: try FileIO.read(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            return try LocationKey(base64URL: text)
        } catch {
            throw CommandFailure("\(path) is not a location key file (expected 43 base64url characters from `parley location keygen`)")
        }
    }
}

/// A legacy key given on the command line.
enum LegacyKeyText {
    static func parse(_ text: String) throws -> LegacyKey {
        do {
            return try LegacyKey(base64: text)
        } catch {
            throw CommandFailure("the Berry Picker Tracker key must be 16 or 32 bytes in standard base64 (24 or 44 characters); check the file or PARLEY_LEGACY_KEY")
        }
    }
}

/// The current time in ms, for positions that carry none.
enum WallClock {
    static func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// Unbuffered line output, so a follower or a gpsd feed shows each position as it happens.
enum LineOutput {
    static func write(_ line: String) {
        Console.out(line)
    }
}
