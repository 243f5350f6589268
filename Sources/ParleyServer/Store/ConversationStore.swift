/// A conversation as the server sees it: who is in it, never what is said.
public struct ConversationRecord: Sendable, Equatable {
    public enum Kind: String, Sendable { case direct, group }
    public var id: Int64
    public var kind: Kind
    public var creatorID: Int64
    public var createdAt: Int64
}

/// A member's standing in a conversation. `withdrawn`: removed while still invited, before answering (the row is
/// the memory that keeps a new invitation from the same creator quiet for a day, docs/API.md §5).
public enum MemberStatus: String, Sendable {
    case active, invited, left, removed, withdrawn
}

/// One line of `list_conversations`.
public struct ConversationSummary: Sendable, Equatable {
    public var conversation: ConversationRecord
    public var memberIDs: [Int64]
    /// Unread messages, counted up to `unreadCountLimit` (that many means that many or more).
    public var unreadCount: Int
    public var lastMessageAt: Int64?
    /// `.pending` while the account has not answered the request this conversation is to it.
    public var request: RequestState? = nil
}

/// Unread messages are counted up to this many (`ConversationSummary.unreadCount`): counting costs a read of each,
/// and someone can be sent millions.
public let unreadCountLimit = 1_000

/// Conversations and membership.
public protocol ConversationStore: Sendable {
    /// Creates a conversation with `creatorID` active and `memberIDs` active (direct) or invited (group);
    /// the other person of a new direct conversation gets `request` (nil: accepted at once).
    /// A direct conversation between the same two accounts is returned instead of duplicated.
    func createConversation(
        kind: ConversationRecord.Kind, creatorID: Int64, memberIDs: [Int64], request: RequestState?, now: Int64
    ) async throws -> (conversation: ConversationRecord, created: Bool)

    /// A conversation by id, if not deleted.
    func conversation(id: Int64) async throws -> ConversationRecord?

    /// The account's status in the conversation, if it was ever a member.
    func memberStatus(conversationID: Int64, accountID: Int64) async throws -> MemberStatus?

    /// Accounts whose status is active.
    func activeMemberIDs(conversationID: Int64) async throws -> [Int64]

    /// Every device of every active member, in one read: (account, device); a member with no
    /// devices appears once with a nil device.
    func activeMemberDevices(conversationID: Int64) async throws -> [(accountID: Int64, deviceID: UInt32?)]

    /// The account's active conversations, most recent activity first, with unread counts; requests it has
    /// not answered are among them (marked), declined ones are not.
    func conversations(accountID: Int64) async throws -> [ConversationSummary]

    /// One of the account's active conversations, as `conversations(accountID:)` lists it; nil when the account is
    /// not an active member, the conversation is deleted, or it is a request the account declined.
    func conversation(id: Int64, accountID: Int64) async throws -> ConversationSummary?

    /// The direct conversation between two accounts, if any.
    func directConversation(between first: Int64, and second: Int64) async throws -> ConversationRecord?
}

extension ConversationStore {
    /// Creates a conversation whose direct member has accepted already.
    public func createConversation(
        kind: ConversationRecord.Kind, creatorID: Int64, memberIDs: [Int64], now: Int64
    ) async throws -> (conversation: ConversationRecord, created: Bool) {
        try await createConversation(kind: kind, creatorID: creatorID, memberIDs: memberIDs, request: nil, now: now)
    }
}
