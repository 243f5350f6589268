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

/// Our signed prekeys, by id (the current one and a replaced one in its grace period).
public protocol SignedPreKeyStore: AnyObject, Sendable {
    /// The signed prekey with `id`, if kept.
    func loadSignedPreKey(id: UInt32) throws -> SignedPreKeyRecord?
    /// Keeps a signed prekey.
    func storeSignedPreKey(_ record: SignedPreKeyRecord) throws
    /// Deletes an expired signed prekey.
    func removeSignedPreKey(id: UInt32) throws
    /// Every kept signed prekey.
    func allSignedPreKeys() throws -> [SignedPreKeyRecord]
}

/// Our post-quantum last-resort prekeys, by id.
public protocol PQPreKeyStore: AnyObject, Sendable {
    /// The PQ prekey with `id`, if kept.
    func loadPQPreKey(id: UInt32) throws -> PQPreKeyRecord?
    /// Keeps a PQ prekey.
    func storePQPreKey(_ record: PQPreKeyRecord) throws
}

/// One-time prekeys in memory.
public final class InMemoryPreKeyStore: PreKeyStore {
    let records: Mutex<[UInt32: OneTimePreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [OneTimePreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    public func loadPreKey(id: UInt32) -> OneTimePreKeyRecord? { records.withLock { $0[id] } }
    public func storePreKey(_ record: OneTimePreKeyRecord) { records.withLock { $0[record.id] = record } }
    public func removePreKey(id: UInt32) { _ = records.withLock { $0.removeValue(forKey: id) } }

    /// How many prekeys are left.
    public var count: Int { records.withLock { $0.count } }
}

/// Signed prekeys in memory.
public final class InMemorySignedPreKeyStore: SignedPreKeyStore {
    let records: Mutex<[UInt32: SignedPreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [SignedPreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    public func loadSignedPreKey(id: UInt32) -> SignedPreKeyRecord? { records.withLock { $0[id] } }
    public func storeSignedPreKey(_ record: SignedPreKeyRecord) { records.withLock { $0[record.id] = record } }
    public func removeSignedPreKey(id: UInt32) { _ = records.withLock { $0.removeValue(forKey: id) } }
    public func allSignedPreKeys() -> [SignedPreKeyRecord] {
        records.withLock { $0.values.sorted { $0.id < $1.id } }
    }
}

/// PQ prekeys in memory.
public final class InMemoryPQPreKeyStore: PQPreKeyStore {
    let records: Mutex<[UInt32: PQPreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [PQPreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    public func loadPQPreKey(id: UInt32) -> PQPreKeyRecord? { records.withLock { $0[id] } }
    public func storePQPreKey(_ record: PQPreKeyRecord) { records.withLock { $0[record.id] = record } }
}
