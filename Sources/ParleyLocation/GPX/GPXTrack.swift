/// A GPX 1.1 track reduced to what location sharing uses: named points with optional time and elevation.
public struct GPXTrack: Sendable, Equatable {
    /// One `<trkpt>`.
    public struct Point: Sendable, Equatable {
        /// Latitude in degrees (the `lat` attribute).
        public var latitude: Double
        /// Longitude in degrees (the `lon` attribute).
        public var longitude: Double
        /// `<ele>` in metres, when present.
        public var elevation: Double?
        /// `<time>` as milliseconds since the Unix epoch, when present.
        public var time: Int64?

        /// A point.
        public init(latitude: Double, longitude: Double, elevation: Double? = nil, time: Int64? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
            self.time = time
        }
    }

    /// The track's `<name>`, if any.
    public var name: String?
    /// All `<trkpt>`s of all segments of all tracks, in document order.
    public var points: [Point]

    /// A track.
    public init(name: String? = nil, points: [Point]) {
        self.name = name
        self.points = points
    }
}

extension GPXTrack.Point {
    /// This point as a waypoint (GPX has no accuracy: 0 means unknown); `fallbackTime` when it has no `<time>`.
    public func waypoint(fallbackTime: Int64) -> Waypoint {
        Waypoint(latitude: latitude, longitude: longitude, timestamp: time ?? fallbackTime, accuracy: 0, altitude: elevation)
    }
}
