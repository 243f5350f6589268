import Foundation
import ParleyClientFormats
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

/// The location keys this device holds (docs/CLIENT.md §11): the account's own ring, which seals what it posts, and a
/// ring per person it follows, filled by `location_key` messages and `parley://location` links. Each ring is a
/// sealed record.
struct LocationKeys: Sendable {
    typealias Dependencies = HasDatabase & HasRandom & HasClock & Sendable
    let dependencies: any Dependencies

    /// The ring stored as `record` (empty when there is none).
    func ring(_ record: String) throws(ClientError) -> LocationKeyRing {
        try dependencies.database.read { try Self.ring(record, in: $0) }
    }

    /// The ring stored as `record`, read within a transaction.
    static func ring(_ record: String, in reader: ClientDatabase.Reader) throws -> LocationKeyRing {
        guard let bytes = try reader.get(LocationKeyRing.namespace, record) else { return LocationKeyRing() }
        guard let ring = try? JSONDecoder().decode(LocationKeyRing.self, from: Data(bytes)) else {
            throw ClientError.storage("the stored location keys of \(record) are unreadable")
        }
        return ring
    }

    /// Keeps `ring` as `record`.
    static func save(_ ring: LocationKeyRing, _ record: String, in writer: ClientDatabase.Writer) throws {
        try writer.put(LocationKeyRing.namespace, record, Array(try JSONEncoder().encode(ring)))
    }

    /// This account's current key, made (epoch 1) the first time it is needed.
    func own() throws(ClientError) -> (key: LocationKey, epoch: Int64) {
        let entry: LocationKeyRing.Entry = try dependencies.database.write { writer in
            var ring = try Self.ring(LocationKeyRing.ownRecord, in: writer.reader)
            if let current = ring.current { return current }
            _ = ring.add(try self.newKey(), epoch: 1, now: self.dependencies.clock.now())
            try Self.save(ring, LocationKeyRing.ownRecord, in: writer)
            return ring.current!
        }
        return (try Self.key(entry), entry.epoch)
    }

    /// A new own key, one epoch after the current one; what is posted from now on is sealed with it.
    func rotateOwn() throws(ClientError) -> (key: LocationKey, epoch: Int64) {
        let entry: LocationKeyRing.Entry = try dependencies.database.write { writer in
            var ring = try Self.ring(LocationKeyRing.ownRecord, in: writer.reader)
            _ = ring.add(try self.newKey(), epoch: (ring.current?.epoch ?? 0) + 1, now: self.dependencies.clock.now())
            try Self.save(ring, LocationKeyRing.ownRecord, in: writer)
            return ring.current!
        }
        return (try Self.key(entry), entry.epoch)
    }

    /// Adds `key` to the ring of `record` (within the caller's transaction); false when it was already there.
    @discardableResult
    func add(_ key: LocationKey, epoch: Int64, to record: String, in writer: ClientDatabase.Writer) throws -> Bool {
        var ring = try Self.ring(record, in: writer.reader)
        guard ring.add(key, epoch: epoch, now: dependencies.clock.now()) else { return false }
        try Self.save(ring, record, in: writer)
        return true
    }

    /// Keeps the key of a `parley://location` link for its owner (epoch 0: older than any key that arrives
    /// end-to-end); returns the owner's account id. `me` is this account, whose own link is refused.
    func remember(link text: String, me: Int64?) throws(ClientError) -> Int64 {
        let link: ParleyLocationLink
        do { link = try ParleyLocationLink(parsing: text) } catch { throw .invalidInput("\(error)") }
        guard let owner = Int64(exactly: link.owner), owner > 0 else { throw .invalidInput("the link's owner is not an account id") }
        guard owner != me else { throw .invalidInput("this link is your own; you always see your own routes") }
        _ = try dependencies.database.write { try self.add(link.key, epoch: 0, to: LocationKeyRing.record(for: owner), in: $0) }
        return owner
    }

    /// Takes in a received `location_key` message: its key joins the sender's ring (the own ring when `fromMe`),
    /// or the message says visibly that the key was not valid, so the follower can ask again.
    func receive(_ content: LocationKeyContent?, into message: inout Message, fromMe: Bool, in writer: ClientDatabase.Writer) throws {
        message.kind = LocationKeyContent.type
        message.text = ""
        switch content?.checked() ?? .failure(LocationKeyContentError("no key")) {
        case .failure(let why):
            message.kind = LocationKeyContent.invalidKind
            message.text = "(ignored a location key that was not valid: \(why))"
        case .success(let (key, epoch)):
            try add(key, epoch: epoch, to: fromMe ? LocationKeyRing.ownRecord : LocationKeyRing.record(for: message.senderID), in: writer)
        }
    }

    private static func key(_ entry: LocationKeyRing.Entry) throws(ClientError) -> LocationKey {
        do { return try LocationKey(bytes: entry.key) } catch { throw .storage("a stored location key is damaged") }
    }

    private func newKey() throws(ClientError) -> LocationKey {
        do { return try LocationKey(bytes: dependencies.random.bytes(32)) } catch { throw .storage("cannot make a location key: \(error)") }
    }
}

extension LocationKeyContent {
    /// The local kind of a `location_key` message whose key was refused (shown, unlike a valid one).
    static let invalidKind = "location_key_invalid"
}

