import Synchronization

/// Sender-key records by group and sending device (ours included).
public protocol SenderKeyStore: AnyObject, Sendable {
    /// The record of `sender`'s chains in `groupId`, if any.
    func loadSenderKey(groupId: String, sender: ProtocolAddress) throws -> SenderKeyRecord?
    /// Replaces that record.
    func storeSenderKey(_ record: SenderKeyRecord, groupId: String, sender: ProtocolAddress) throws
}

/// The key of a sender-key record: a group and a sending device.
public struct SenderKeyName: Hashable, Comparable, Sendable {
    /// The group identifier.
    public let groupId: String
    /// The sending device.
    public let sender: ProtocolAddress

    /// Creates a name.
    public init(groupId: String, sender: ProtocolAddress) {
        self.groupId = groupId
        self.sender = sender
    }

    public static func < (lhs: SenderKeyName, rhs: SenderKeyName) -> Bool {
        let l = Array(lhs.groupId.utf8), r = Array(rhs.groupId.utf8)
        return l == r ? lhs.sender < rhs.sender : l.lexicographicallyPrecedes(r)
    }
}

/// Sender keys in memory.
public final class InMemorySenderKeyStore: SenderKeyStore {
    let records: Mutex<[SenderKeyName: SenderKeyRecord]>

    /// Creates a store holding `records`.
    public init(records: [SenderKeyName: SenderKeyRecord] = [:]) {
        self.records = Mutex(records)
    }

    public func loadSenderKey(groupId: String, sender: ProtocolAddress) -> SenderKeyRecord? {
        records.withLock { $0[SenderKeyName(groupId: groupId, sender: sender)] }
    }

    public func storeSenderKey(_ record: SenderKeyRecord, groupId: String, sender: ProtocolAddress) {
        records.withLock { $0[SenderKeyName(groupId: groupId, sender: sender)] = record }
    }
}
