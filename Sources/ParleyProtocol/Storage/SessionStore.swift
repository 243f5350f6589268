import Synchronization

/// Where session records live, one per remote device.
///
/// Reference-typed and synchronous: the client's account actor owns an encrypted SQLite
/// implementation and hands it in; methods may throw that store's errors.
public protocol SessionStore: AnyObject, Sendable {
    /// The record for `address`, if any.
    func loadSession(for address: ProtocolAddress) throws -> SessionRecord?
    /// Replaces the record for `address`.
    func storeSession(_ record: SessionRecord, for address: ProtocolAddress) throws
}

/// A session store in memory, for tests and as the model of a persistent one.
public final class InMemorySessionStore: SessionStore {
    let records: Mutex<[ProtocolAddress: SessionRecord]>

    /// Creates an empty store, or one holding `records`.
    public init(records: [ProtocolAddress: SessionRecord] = [:]) {
        self.records = Mutex(records)
    }

    public func loadSession(for address: ProtocolAddress) -> SessionRecord? {
        records.withLock { $0[address] }
    }

    public func storeSession(_ record: SessionRecord, for address: ProtocolAddress) {
        records.withLock { $0[address] = record }
    }

    /// Every address with a session.
    public var addresses: [ProtocolAddress] { records.withLock { $0.keys.sorted() } }
}
