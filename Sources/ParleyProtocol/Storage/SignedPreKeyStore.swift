import Synchronization

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

/// Signed prekeys in memory.
public final class InMemorySignedPreKeyStore: SignedPreKeyStore {
    let records: Mutex<[UInt32: SignedPreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [SignedPreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    /// Returns the signed prekey with `id`, if kept.
    public func loadSignedPreKey(id: UInt32) -> SignedPreKeyRecord? { records.withLock { $0[id] } }
    /// Keeps a signed prekey.
    public func storeSignedPreKey(_ record: SignedPreKeyRecord) { records.withLock { $0[record.id] = record } }
    /// Deletes an expired signed prekey.
    public func removeSignedPreKey(id: UInt32) { _ = records.withLock { $0.removeValue(forKey: id) } }
    /// Every kept signed prekey, by id.
    public func allSignedPreKeys() -> [SignedPreKeyRecord] {
        records.withLock { $0.values.sorted { $0.id < $1.id } }
    }
}
