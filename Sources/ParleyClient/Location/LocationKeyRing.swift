import Foundation
import ParleyLocation

/// The v2 keys this device holds for one sharer (itself, or someone it follows), newest epoch first.
///
/// Stored sealed under the MainKey in `records` namespace `location_key` (`own` for this account's keys,
/// `from/ACCOUNT` for a sharer's), docs/CLIENT.md §11. Old keys stay so waypoints sealed before a
/// rotation remain readable; v2 values carry no key id, so a reader tries the keys newest first (GCM
/// authentication makes a wrong key fail cleanly).
struct LocationKeyRing: Codable, Sendable, Equatable {
    /// One key and when this device learned it.
    struct Entry: Codable, Sendable, Equatable {
        /// The sharer's key counter.
        var epoch: Int64
        /// The 32 raw key bytes.
        var key: Data
        /// When this device stored it, ms.
        var added: Int64
    }

    /// The `records` namespace.
    static let namespace = "location_key"
    /// The record of this account's own keys.
    static let ownRecord = "own"
    /// Most keys kept per sharer; the oldest go first (a rotation per revocation makes this plenty).
    static let maximumKeys = 64

    /// The record of the keys of sharer `accountID`.
    static func record(for accountID: Int64) -> String { "from/\(accountID)" }

    /// Newest epoch first.
    var entries: [Entry] = []

    /// The key with the highest epoch.
    var current: Entry? { entries.first }

    /// The keys to try, newest first.
    var keys: [LocationKey] { entries.compactMap { try? LocationKey(bytes: $0.key) } }

    /// Adds a key; false when this exact key was already held (nothing changes then).
    mutating func add(_ key: LocationKey, epoch: Int64, now: Int64) -> Bool {
        let bytes = Data(key.bytes)
        guard !entries.contains(where: { $0.key == bytes }) else { return false }
        entries.append(Entry(epoch: epoch, key: bytes, added: now))
        // Stable on ties: a later key of the same epoch (a sharer who reinstalled) is tried first.
        entries = entries.enumerated().sorted { ($0.element.epoch, $0.offset) > ($1.element.epoch, $1.offset) }.map(\.element)
        if entries.count > Self.maximumKeys { entries.removeLast(entries.count - Self.maximumKeys) }
        return true
    }
}

extension ParleyClient {
    /// The stored ring of `record`, empty when there is none.
    func locationKeyRing(_ record: String) throws(ClientError) -> LocationKeyRing {
        guard let bytes = try database.read({ try $0.get(LocationKeyRing.namespace, record) }) else { return LocationKeyRing() }
        guard let ring = try? JSONDecoder().decode(LocationKeyRing.self, from: Data(bytes)) else {
            throw .storage("the stored location keys of \(record) are unreadable")
        }
        return ring
    }

    /// Stores `ring` as `record` inside `writer`'s transaction.
    func saveLocationKeyRing(_ ring: LocationKeyRing, _ record: String, in writer: ClientDatabase.Writer) throws {
        try writer.put(LocationKeyRing.namespace, record, Array(try JSONEncoder().encode(ring)))
    }

    /// This account's current sharing key, made (epoch 1) the first time it is needed.
    func ownLocationKey() throws(ClientError) -> (key: LocationKey, epoch: Int64) {
        let entry: LocationKeyRing.Entry = try database.write { writer in
            var ring = try self.locationKeyRing(LocationKeyRing.ownRecord)
            if let current = ring.current { return current }
            _ = ring.add(try self.newLocationKey(), epoch: 1, now: self.dependencies.clock.now())
            try self.saveLocationKeyRing(ring, LocationKeyRing.ownRecord, in: writer)
            return ring.current!
        }
        return (try Self.locationKey(entry), entry.epoch)
    }

    /// A new own key one epoch above the current one (after revoking a follower); the old keys stay.
    func rotateOwnLocationKey() throws(ClientError) -> (key: LocationKey, epoch: Int64) {
        let entry: LocationKeyRing.Entry = try database.write { writer in
            var ring = try self.locationKeyRing(LocationKeyRing.ownRecord)
            _ = ring.add(try self.newLocationKey(), epoch: (ring.current?.epoch ?? 0) + 1, now: self.dependencies.clock.now())
            try self.saveLocationKeyRing(ring, LocationKeyRing.ownRecord, in: writer)
            return ring.current!
        }
        return (try Self.locationKey(entry), entry.epoch)
    }

    private static func locationKey(_ entry: LocationKeyRing.Entry) throws(ClientError) -> LocationKey {
        do { return try LocationKey(bytes: entry.key) } catch { throw .storage("a stored location key is damaged") }
    }

    /// 32 bytes from the client's random source (so tests with a seeded source stay reproducible).
    private func newLocationKey() throws(ClientError) -> LocationKey {
        do { return try LocationKey(bytes: dependencies.random.bytes(32)) } catch { throw .storage("cannot make a location key: \(error)") }
    }

    /// Takes in a `location_key` message: the key joins the ring of its sender (our own ring when another
    /// device of this account sent it). A malformed key changes nothing; the message then says why.
    func receiveLocationKey(_ content: LocationKeyContent?, into message: inout Message, in writer: ClientDatabase.Writer) throws {
        message.kind = LocationKeyContent.type
        message.text = ""
        switch content?.checked() ?? .failure(LocationKeyContentError("no key")) {
        case .failure(let why):
            // Visible, so the sharer's follower knows a key did not arrive (and can ask again).
            message.kind = LocationKeyContent.invalidKind
            message.text = "(ignored a location key that was not valid: \(why))"
        case .success(let (key, epoch)):
            let record = message.senderID == keys.accountID ? LocationKeyRing.ownRecord : LocationKeyRing.record(for: message.senderID)
            var ring = try locationKeyRing(record)
            if ring.add(key, epoch: epoch, now: dependencies.clock.now()) { try saveLocationKeyRing(ring, record, in: writer) }
        }
    }
}

extension LocationKeyContent {
    /// The local kind of a `location_key` message whose key was refused (shown, unlike a valid one).
    static let invalidKind = "location_key_invalid"
}

