import Crypto

/// Parley's authenticated location format, version 2 (docs/FORMATS.md §13.3).
///
/// `"v2:" + base64(nonce(12) ‖ ciphertext ‖ tag(16))`, AES-256-GCM over the waypoint's compact
/// JSON, with associated data binding the value to its owner, route and timestamp so the server
/// cannot move it to another route or person, or re-date it.
public enum WaypointV2 {
    /// Text every stored v2 value starts with; `:` never occurs in legacy (base64) values.
    public static let prefix = "v2:"
    /// Longest stored value accepted, matching the server's 1 KiB per waypoint.
    public static let maxStoredLength = 1024
    static let label = Array("parley-location-v2".utf8)

    /// Where a waypoint belongs; all three are bound by the associated data.
    public struct Binding: Sendable, Equatable {
        /// Account id of the person sharing their location.
        public var owner: UInt64
        /// Route id the server assigned in `start_route`.
        public var routeID: UInt64
        /// The waypoint's timestamp (ms), stored in the clear beside the ciphertext for paging.
        public var timestamp: Int64

        /// A binding for one waypoint.
        public init(owner: UInt64, routeID: UInt64, timestamp: Int64) {
            self.owner = owner
            self.routeID = routeID
            self.timestamp = timestamp
        }

        /// `"parley-location-v2" ‖ owner u64 ‖ route u64 ‖ timestamp u64`, all big-endian (42 bytes).
        public var associatedData: [UInt8] {
            var bytes = WaypointV2.label
            for value in [owner, routeID, UInt64(bitPattern: timestamp)] {
                withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
            }
            return bytes
        }
    }

    /// Seals `waypoint` for `owner`'s route with a given nonce (exposed for known-answer tests).
    public static func seal(_ waypoint: Waypoint, owner: UInt64, routeID: UInt64, key: LocationKey, nonce: [UInt8]) throws(LocationError) -> String {
        try waypoint.validate()
        let binding = Binding(owner: owner, routeID: routeID, timestamp: waypoint.timestamp)
        guard nonce.count == 12, let gcmNonce = try? AES.GCM.Nonce(data: nonce) else {
            throw .malformed("nonce must be 12 bytes")
        }
        guard let box = try? AES.GCM.seal(Array(waypoint.compactJSON.utf8), using: key.symmetricKey, nonce: gcmNonce,
                                          authenticating: binding.associatedData),
              let combined = box.combined
        else { throw .malformed("encryption failed") }
        return prefix + Base64.encodeStandard(combined)
    }

    /// Seals `waypoint` with a fresh random nonce.
    public static func seal(_ waypoint: Waypoint, owner: UInt64, routeID: UInt64, key: LocationKey) throws(LocationError) -> String {
        try seal(waypoint, owner: owner, routeID: routeID, key: key, nonce: Array(AES.GCM.Nonce()))
    }

    /// Opens a stored value; `binding` comes from the server's record, and the JSON's `ts` must match it.
    public static func open(_ stored: String, binding: Binding, key: LocationKey) throws(LocationError) -> Waypoint {
        guard stored.utf8.count <= maxStoredLength else { throw .malformed("longer than \(maxStoredLength) characters") }
        guard stored.hasPrefix(prefix) else {
            if let colon = stored.firstIndex(of: ":"), stored[..<colon].count <= 8 {
                throw .malformed("unsupported version \(stored[..<colon].prefix(8)) (made by a newer Parley?)")
            }
            throw .malformed("does not start with \(prefix)")
        }
        guard let combined = Base64.decodeStandard(stored.dropFirst(prefix.count)) else {
            throw .malformed("not standard base64 after \(prefix)")
        }
        guard combined.count >= 12 + 16 else { throw .malformed("shorter than a nonce and a tag") }
        guard let box = try? AES.GCM.SealedBox(combined: combined),
              let plaintext = try? AES.GCM.open(box, using: key.symmetricKey, authenticating: binding.associatedData)
        else { throw .couldNotDecrypt }
        let waypoint = try Waypoint(compactJSON: plaintext)
        guard waypoint.timestamp == binding.timestamp else {
            throw .invalidPlaintext("timestamp differs from the one it was stored under")
        }
        return waypoint
    }
}
