import Foundation

extension Waypoint {
    /// Longest plaintext a reader parses; a valid waypoint needs about 100 bytes.
    static let maxJSONLength = 512

    /// The compact JSON sealed by format v2: fixed key order, JavaScript number text, no spaces.
    public var compactJSON: String {
        var json = "{\"lat\":\(JSNumber.string(latitude)),\"lon\":\(JSNumber.string(longitude))"
        json += ",\"ts\":\(timestamp),\"acc\":\(JSNumber.string(accuracy))"
        if let altitude { json += ",\"alt\":\(JSNumber.string(altitude))" }
        return json + "}"
    }

    private struct Fields: Decodable {
        let lat: Double
        let lon: Double
        let ts: Int64
        let acc: Double
        let alt: Double?
    }

    /// Reads the JSON of a v2 plaintext; key order and unknown keys do not matter, types and ranges do.
    public init(compactJSON bytes: some Collection<UInt8>) throws(LocationError) {
        guard bytes.count <= Self.maxJSONLength else { throw .invalidPlaintext("waypoint JSON is too long") }
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: Data(bytes))
        } catch {
            throw .invalidPlaintext("not a waypoint object with numeric lat, lon, ts, acc")
        }
        self.init(latitude: fields.lat, longitude: fields.lon, timestamp: fields.ts, accuracy: fields.acc, altitude: fields.alt)
        try validate()
    }
}
