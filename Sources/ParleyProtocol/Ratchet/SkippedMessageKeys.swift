/// Message keys kept for messages that have not arrived yet, oldest first.
///
/// Keyed by (ratchet public key, n). The list is bounded: past `limit` the oldest key is
/// evicted, so a peer cannot make us store unbounded state.
public struct SkippedMessageKeys: Sendable, Equatable {
    /// One kept key.
    public struct Entry: Sendable, Equatable {
        /// The sender's ratchet public key of the chain the key belongs to (empty for sender keys).
        public let ratchetKey: [UInt8]
        /// The message number in that chain.
        public let index: UInt32
        /// The message key.
        public let messageKey: [UInt8]
    }

    /// The kept keys, oldest first.
    public private(set) var entries: [Entry] = []
    /// The most entries kept.
    public let limit: Int

    /// Creates an empty list bounded by `limit`.
    public init(limit: Int = ProtocolConstants.maxStoredSkippedKeys) {
        self.limit = limit
    }

    /// Creates a list from stored entries (oldest first).
    init(entries: [Entry], limit: Int = ProtocolConstants.maxStoredSkippedKeys) {
        self.entries = entries
        self.limit = limit
    }

    /// How many keys are kept.
    public var count: Int { entries.count }

    /// Adds a key, evicting the oldest ones beyond the limit.
    mutating func append(ratchetKey: [UInt8], index: UInt32, messageKey: [UInt8]) {
        entries.append(Entry(ratchetKey: ratchetKey, index: index, messageKey: messageKey))
        if entries.count > limit {
            entries.removeFirst(entries.count - limit)
        }
    }

    /// Removes and returns the key for (`ratchetKey`, `index`), if kept.
    mutating func take(ratchetKey: [UInt8], index: UInt32) -> [UInt8]? {
        guard !entries.isEmpty,
            let position = entries.firstIndex(where: { $0.index == index && $0.ratchetKey == ratchetKey })
        else { return nil }
        return entries.remove(at: position).messageKey
    }
}
