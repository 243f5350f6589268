import ParleyWire

/// One ciphertext addressed to one device, stored as `send_message` brings it.
public typealias Envelope = API.Envelope

/// A message to store, as `send_message` submits it.
public struct NewMessage: Sendable, Equatable {
    public var conversationID: Int64
    public var senderID: Int64
    public var senderDevice: UInt32
    /// The client's idempotency key: a retry with the same key returns the stored message.
    public var clientMessageID: String
    /// What the server may know about the content: "text", "file", "image", …
    public var kind: String
    public var replyTo: Int64?
    public var envelopes: [Envelope]
    /// For one device only (a retry request, a re-send, a title for a newcomer): stored and delivered like any
    /// message, but left out of unread counts, the conversation's last activity and metadata search.
    public var directed: Bool = false
}

/// Where a message stands once stored.
public struct StoredMessage: Sendable, Equatable {
    public var id: Int64
    /// Server time (ms), strictly increasing across all messages: a paging cursor.
    public var timestamp: Int64
    /// False when the idempotency key matched an earlier send.
    public var created: Bool
    /// Accounts that get no envelope of it (they blocked the sender or declined the conversation): they must
    /// not hear of it either.
    public var withheld: Set<Int64> = []
}

/// A member of a conversation and one of its devices (nil when the account has none).
public typealias MemberDevice = (accountID: Int64, deviceID: UInt32?)

/// What `insertMessage(_:now:checkingMembers:)` did.
public enum MessageInsertion: Sendable {
    /// Stored now, or found stored earlier under the same (sender, client id).
    case stored(StoredMessage)
    /// The message does not fit the conversation's member devices (`NewMessage.fits`, read in the insert's
    /// transaction, which stored nothing); they come back so the caller can say what was wrong.
    case refused(memberDevices: [MemberDevice])
    /// Storing it would take the ciphertext the sender's messages hold waiting for delivery past the limit; nothing
    /// was stored. `undeliveredBytes` is what they hold now.
    case overQuota(undeliveredBytes: Int64)
}

/// A message as one device fetches it: metadata and the ciphertext addressed to that device.
public struct DeliverableMessage: Sendable, Equatable {
    public var id: Int64
    public var conversationID: Int64
    public var senderID: Int64
    public var senderDevice: UInt32
    public var timestamp: Int64
    public var kind: String
    public var replyTo: Int64?
    public var ciphertext: [UInt8]
}

/// Messages and their per-device ciphertexts.
public protocol MessageStore: Sendable {
    /// In one transaction: when `checkingMembers`, reads the conversation's active member devices and refuses a
    /// message that does not fit them (`NewMessage.fits`; nothing else can change the membership meanwhile), then
    /// stores the message and its envelopes, or returns the earlier one with the same (sender, client id). The
    /// timestamp is `max(now, last + 1)`.
    ///
    /// A new message is refused (`overQuota`) when the envelopes it would store (those of accounts it is withheld
    /// from are not) would take the sender's undelivered ciphertext past `maximumUndeliveredBytes`. That total
    /// rises here, in the insert's transaction, and falls with every envelope deleted, whatever deletes it (a
    /// confirmed delivery, a removed device, a deleted message or conversation or account, the retention sweep).
    func insertMessage(_ message: NewMessage, now: Int64, checkingMembers: Bool, maximumUndeliveredBytes: Int64) async throws -> MessageInsertion

    /// Bytes of ciphertext the messages `senderID` sent hold waiting for delivery (every envelope not yet deleted).
    func undeliveredBytes(senderID: Int64) async throws -> Int64

    /// Messages with an envelope for this device not yet confirmed delivered and a timestamp after
    /// `afterTimestamp`, oldest first: at most `limit`, and none after the one whose ciphertext takes the page's
    /// ciphertext bytes past `maximumBytes` — the store never holds more than the budget and one envelope.
    func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int, maximumBytes: Int) async throws -> [DeliverableMessage]

    /// The conversation a message belongs to, if the message exists.
    func conversationID(ofMessage messageID: Int64) async throws -> Int64?

    /// Deletes this device's envelopes (the device has them now); returns those newly confirmed, in the caller's
    /// order, each once.
    func confirmDelivery(accountID: Int64, deviceID: UInt32, messageIDs: [Int64], now: Int64) async throws -> [ConfirmedDelivery]
}

/// A device's envelope of a message, confirmed: whose message it was, and whether its sender may hear of it.
public struct ConfirmedDelivery: Sendable, Equatable {
    public var messageID: Int64
    public var senderID: Int64
    /// False for the account's own messages (its other devices need no tick) and across a block either way: a tick
    /// tells the sender the device was there (presence). Decided in the statement that confirms, so a delivery
    /// costs the database one round trip.
    public var tellsSender: Bool

    public init(messageID: Int64, senderID: Int64, tellsSender: Bool) {
        self.messageID = messageID
        self.senderID = senderID
        self.tellsSender = tellsSender
    }
}

extension MessageStore {
    /// Stores a message whatever the membership (set-up code and tests; `send_message` checks it).
    public func insertMessage(_ message: NewMessage, now: Int64) async throws -> StoredMessage {
        switch try await insertMessage(message, now: now, checkingMembers: false) {
        case .stored(let stored): return stored
        case .refused, .overQuota: throw StoreError.unavailable("message insert refused")
        }
    }

    /// Stores a message whatever its sender's undelivered ciphertext (tests of the membership rules).
    public func insertMessage(_ message: NewMessage, now: Int64, checkingMembers: Bool) async throws -> MessageInsertion {
        try await insertMessage(message, now: now, checkingMembers: checkingMembers, maximumUndeliveredBytes: .max)
    }
}

extension MessageStore {
    /// The first `limit` deliverable messages, whatever their size (maintenance and tests; requests use a budget).
    func messages(accountID: Int64, deviceID: UInt32, afterTimestamp: Int64, limit: Int) async throws -> [DeliverableMessage] {
        try await messages(accountID: accountID, deviceID: deviceID, afterTimestamp: afterTimestamp, limit: limit, maximumBytes: .max)
    }
}
