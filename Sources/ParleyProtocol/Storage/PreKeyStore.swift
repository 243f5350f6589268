import Synchronization

/// Our one-time prekeys, by id.
public protocol PreKeyStore: AnyObject, Sendable {
    /// The prekey with `id`, if it still exists.
    func loadPreKey(id: UInt32) throws -> OneTimePreKeyRecord?
    /// Keeps a new prekey.
    func storePreKey(_ record: OneTimePreKeyRecord) throws
    /// Deletes a used prekey.
    func removePreKey(id: UInt32) throws
}

/// One-time prekeys in memory.
public final class InMemoryPreKeyStore: PreKeyStore {
    let records: Mutex<[UInt32: OneTimePreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [OneTimePreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    /// Returns the prekey with `id`, if it still exists.
    public func loadPreKey(id: UInt32) -> OneTimePreKeyRecord? { records.withLock { $0[id] } }
    /// Keeps a new prekey.
    public func storePreKey(_ record: OneTimePreKeyRecord) { records.withLock { $0[record.id] = record } }
    /// Deletes a used prekey.
    public func removePreKey(id: UInt32) { _ = records.withLock { $0.removeValue(forKey: id) } }

    /// How many prekeys are left.
    public var count: Int { records.withLock { $0.count } }
}
