/// One position: what a sharer posts and a follower reads, independent of the format carrying it.
public struct Waypoint: Sendable, Equatable {
    /// Latitude in degrees, −90…90.
    public var latitude: Double
    /// Longitude in degrees, −180…180.
    public var longitude: Double
    /// When the position was taken, milliseconds since the Unix epoch.
    public var timestamp: Int64
    /// Horizontal accuracy in metres (0 when unknown).
    public var accuracy: Double
    /// Altitude in metres above sea level, when known.
    public var altitude: Double?

    /// A waypoint; call ``validate()`` before trusting values from outside.
    public init(latitude: Double, longitude: Double, timestamp: Int64, accuracy: Double = 0, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.timestamp = timestamp
        self.accuracy = accuracy
        self.altitude = altitude
    }

    /// Largest timestamp the formats carry: JSON numbers are exact only below 2^53.
    public static let maxTimestamp: Int64 = (1 << 53) - 1

    /// Throws when any value is outside what the formats allow.
    public func validate() throws(LocationError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .outOfRange("latitude must be -90…90") }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .outOfRange("longitude must be -180…180") }
        guard (0...Self.maxTimestamp).contains(timestamp) else { throw .outOfRange("timestamp must be 0…2^53-1 ms") }
        guard accuracy.isFinite, accuracy >= 0 else { throw .outOfRange("accuracy must be a finite number ≥ 0") }
        if let altitude, !altitude.isFinite || altitude.magnitude > 1e7 {
            throw .outOfRange("altitude must be a finite number within ±10,000 km")
        }
    }
}
