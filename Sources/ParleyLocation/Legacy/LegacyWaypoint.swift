/// A position sealed as the Berry Picker Tracker app seals it: latitude and longitude each a separate
/// legacy value (docs/FORMATS.md §13.1) of its JavaScript number text, everything else in the clear.
public struct LegacyWaypoint: Sendable, Equatable {
    /// The encrypted latitude.
    public var latitude: String
    /// The encrypted longitude.
    public var longitude: String
    /// The clear time of the fix, ms since the Unix epoch (the app's `ts`).
    public var timestamp: Int64

    /// Seals a checked waypoint with fresh random IVs.
    public static func seal(_ waypoint: Waypoint, key: LegacyKey) throws(LocationError) -> LegacyWaypoint {
        try waypoint.validate()
        return LegacyWaypoint(latitude: try LegacyCipher.encrypt(number: waypoint.latitude, key: key),
                              longitude: try LegacyCipher.encrypt(number: waypoint.longitude, key: key),
                              timestamp: waypoint.timestamp)
    }

    /// Seals with given IVs (latitude's, then longitude's): known-answer tests only.
    public static func seal(_ waypoint: Waypoint, key: LegacyKey, ivs: (latitude: [UInt8], longitude: [UInt8])) throws(LocationError) -> LegacyWaypoint {
        try waypoint.validate()
        return LegacyWaypoint(latitude: try LegacyCipher.encrypt(text: JSNumber.string(waypoint.latitude), key: key, iv: ivs.latitude),
                              longitude: try LegacyCipher.encrypt(text: JSNumber.string(waypoint.longitude), key: key, iv: ivs.longitude),
                              timestamp: waypoint.timestamp)
    }
}
