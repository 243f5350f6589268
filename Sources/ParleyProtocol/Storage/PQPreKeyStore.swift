import Synchronization

/// Our post-quantum last-resort prekeys, by id.
public protocol PQPreKeyStore: AnyObject, Sendable {
    /// The PQ prekey with `id`, if kept.
    func loadPQPreKey(id: UInt32) throws -> PQPreKeyRecord?
    /// Keeps a PQ prekey.
    func storePQPreKey(_ record: PQPreKeyRecord) throws
}

/// PQ prekeys in memory.
public final class InMemoryPQPreKeyStore: PQPreKeyStore {
    let records: Mutex<[UInt32: PQPreKeyRecord]>

    /// Creates a store holding `records`.
    public init(_ records: [PQPreKeyRecord] = []) {
        self.records = Mutex(Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    /// Returns the PQ prekey with `id`, if kept.
    public func loadPQPreKey(id: UInt32) -> PQPreKeyRecord? { records.withLock { $0[id] } }
    /// Keeps a PQ prekey.
    public func storePQPreKey(_ record: PQPreKeyRecord) { records.withLock { $0[record.id] = record } }
}
