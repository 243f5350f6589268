/// Group membership changes and conversation-level actions.
public protocol GroupStore: Sendable {
    /// Sets an account's member status, inserting the row if needed.
    func setMemberStatus(conversationID: Int64, accountID: Int64, status: MemberStatus, now: Int64) async throws

    /// Marks the account as having left the group. When it made the group, the right to rename it, remove members and
    /// delete it passes in the same transaction to the heir (`GroupDeparture`); with no member to take it, the group
    /// is deleted as by `deleteConversation`.
    func leaveGroup(conversationID: Int64, accountID: Int64, now: Int64) async throws -> GroupDeparture

    /// Marks the account invited to the group unless its members and invitees fill `seats` already; false then.
    /// Counting and inviting are one transaction, so invitations at once cannot pass the limit together.
    func invite(conversationID: Int64, accountID: Int64, seats: Int, now: Int64) async throws -> Bool

    /// Removes a pending invitation (declined).
    func deleteMember(conversationID: Int64, accountID: Int64) async throws

    /// Conversations the account is invited to.
    func invitations(accountID: Int64) async throws -> [ConversationRecord]

    /// How many of the account's unanswered invitations are to groups `creatorID` made.
    func pendingInvitations(accountID: Int64, creatorID: Int64) async throws -> Int

    /// How many groups (not deleted) the account is an active member of.
    func activeGroups(accountID: Int64) async throws -> Int

    /// Whether an invitation of `invitee` to a group `creatorID` made went away unanswered at `since` or later: the
    /// group was deleted while they were still invited, or they were removed before answering (`withdrawn`).
    func invitationWithdrawn(invitee: Int64, creatorID: Int64, since: Int64) async throws -> Bool

    /// Marks a conversation deleted for everyone.
    func deleteConversation(conversationID: Int64, now: Int64) async throws

    /// Accounts that share an active conversation with `accountID` in which neither owes an answer to a
    /// message request, and neither has blocked the other: its contacts (presence, contacts-only profile
    /// fields, avatars). Read from the `contacts` table the database keeps by triggers (one row per contact), not
    /// from every member of every conversation.
    func contactIDs(accountID: Int64) async throws -> [Int64]

    /// Whether `a` and `b` are contacts (`contactIDs(accountID: a).contains(b)`): one row of the `contacts` table.
    func areContacts(_ a: Int64, _ b: Int64) async throws -> Bool
}

/// What leaving a group did to it.
public enum GroupDeparture: Sendable, Equatable {
    /// Someone other than its creator left.
    case left
    /// Its creator left and `heir` holds the creator's rights now: the active member who joined first (between equals,
    /// the lower account id). The rule account deletion follows too.
    case handedOver(heir: Int64)
    /// Its creator left and no member is left in it: it is deleted, and its unanswered invitations with it (nobody
    /// would be there to meet whoever accepted).
    case deleted
}

/// A message's metadata without any ciphertext.
public struct MessageMetadata: Sendable, Equatable {
    public var id: Int64
    public var conversationID: Int64
    public var senderID: Int64
    public var timestamp: Int64
    public var kind: String
    public var deletedAt: Int64?
    public var pinnedAt: Int64?
}

/// How far a member has read a conversation (server time, ms), and since when they are in it: a mark says
/// nothing about a message sent before they joined.
public struct ReadMark: Sendable, Equatable {
    public var accountID: Int64
    public var upTo: Int64
    public var joinedAt: Int64

    /// Whether this member has read a message sent at `timestamp`.
    public func covers(_ timestamp: Int64) -> Bool { upTo >= timestamp && joinedAt <= timestamp }
}

/// Read marks, reactions, pins, deletions.
public protocol MessageActionStore: Sendable {
    /// A message's metadata, if it exists.
    func messageMetadata(id: Int64) async throws -> MessageMetadata?

    /// Moves the member's read mark forward to `timestamp` (never back); returns the new mark.
    func markRead(conversationID: Int64, accountID: Int64, upTo timestamp: Int64) async throws -> Int64

    /// The newest message timestamp of a conversation (0 when empty).
    func latestTimestamp(conversationID: Int64) async throws -> Int64

    /// Toggles a reaction; returns true when it is now present.
    func toggleReaction(messageID: Int64, accountID: Int64, emoji: String, now: Int64) async throws -> Bool

    /// Reactions on a message: (account id, emoji).
    func reactions(messageID: Int64) async throws -> [(Int64, String)]

    /// The accounts, other than its sender, that a device of confirmed the message (in account order).
    func deliveredTo(messageID: Int64) async throws -> [Int64]

    /// The accounts, other than its sender, the message was stored for: those a device of which confirmed it and those
    /// with an envelope still waiting — not those it was withheld from (a block, a declined request), in account
    /// order. A read mark counts for a message only where it was stored for the reader (`get_message_state`).
    func storedFor(messageID: Int64) async throws -> [Int64]

    /// Read marks of the conversation's active members with no request open (those who have not accepted one
    /// read without telling), in account order.
    func readMarks(conversationID: Int64) async throws -> [ReadMark]

    /// Pins (`accountID`: who) or unpins (nil) a message. Pinning is refused (false, nothing changed) while its
    /// conversation has `limit` other messages pinned; counting and pinning are one transaction.
    func setPinned(messageID: Int64, by accountID: Int64?, limit: Int, now: Int64) async throws -> Bool

    /// Pinned messages of a conversation, oldest pin first.
    func pinnedMessages(conversationID: Int64) async throws -> [MessageMetadata]

    /// Soft-deletes a message (its ciphertexts are dropped; the row remains as a marker).
    func softDelete(messageID: Int64, now: Int64) async throws

    /// Messages deleted after `since` in the account's active conversations.
    func deletedMessages(accountID: Int64, since: Int64) async throws -> [MessageMetadata]

    /// Metadata search in the account's active conversations, newest first (never over content), within a bounded
    /// amount of database work (`MessageSearch.tooBroad` past it): what it reads depends on filters the caller
    /// chooses, and no index bounds it.
    func searchMessages(accountID: Int64, query: MessageQuery) async throws -> MessageSearch

    /// Records where a message was forwarded from.
    func setForwardedFrom(messageID: Int64, source: Int64) async throws
}

/// What a metadata search found, or that it stopped before the end: it would read more than one search may.
public enum MessageSearch: Sendable, Equatable {
    case found([MessageMetadata])
    case tooBroad

    /// SQLite: virtual machine steps one search may run (about 55,000 message rows, 75 ms here; `SQLiteWorkBudget`).
    public static let sqliteSteps = 500_000
    /// PostgreSQL: the candidate rows one search may read — those the conversation, sender and time filters select,
    /// newest first — before the kind is checked on them (about SQLite's bound; a count, not a time, so a fast machine
    /// does not answer what a slow one refuses).
    public static let postgresRows: Int64 = 50_000
    /// PostgreSQL: how long one search's statement may run (`statement_timeout`), for a plan that reads more rows than
    /// it keeps as candidates (another account's messages, a sender without an index).
    public static let postgresMilliseconds = 100
}

/// What `search_messages` may filter on: only what the server is allowed to know.
public struct MessageQuery: Sendable, Equatable {
    public var conversationID: Int64?
    public var senderID: Int64?
    public var kind: String?
    public var from: Int64?
    public var to: Int64?
    public var limit: Int
}
