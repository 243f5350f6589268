/// Where the other person stands on a direct conversation someone started with them (docs/API.md §5.1):
/// no state means accepted.
public enum RequestState: String, Sendable {
    /// Not answered yet: messages reach them, but the starter is not a contact (no contacts-only profile
    /// field, no avatar, no presence, no read marks).
    case pending
    /// Declined (or the starter is blocked): the conversation is hidden from them and messages are withheld.
    case declined
}

/// A direct conversation waiting for the caller's answer, with who started it.
public struct RequestRecord: Sendable, Equatable {
    public var conversation: ConversationRecord
    public var requesterID: Int64
    public var requesterEmail: String
    public var requesterName: String
    public var lastMessageAt: Int64?
}

/// Message requests and the block list, both enforced by the server.
public protocol RequestStore: Sendable {
    /// The account's answer to the conversation, if it still owes one or declined it.
    func requestState(conversationID: Int64, accountID: Int64) async throws -> RequestState?

    /// Sets (nil: accepts) the account's answer.
    func setRequestState(conversationID: Int64, accountID: Int64, _ state: RequestState?) async throws

    /// Pending requests for the account, newest activity first.
    func requests(accountID: Int64) async throws -> [RequestRecord]

    /// How many direct conversations the account started are still waiting for the other person's answer.
    func unansweredRequests(startedBy accountID: Int64) async throws -> Int

    /// Whether a direct conversation `starter` started with `other` was deleted at `since` or later while its
    /// request still waited for `other`'s answer (its row stays until the pair's next conversation replaces it).
    func requestDeleted(from starter: Int64, to other: Int64, since: Int64) async throws -> Bool

    /// Adds `blocked` to `blocker`'s block list and declines every pending request between them, in one
    /// transaction. False (nothing changed) when the list already holds `limit` accounts.
    func block(_ blocked: Int64, by blocker: Int64, limit: Int, now: Int64) async throws -> Bool

    /// Removes `blocked` from the list (declined requests stay declined).
    func unblock(_ blocked: Int64, by blocker: Int64) async throws

    /// The accounts `blocker` has blocked that still exist, with their display names, in the order they were
    /// blocked: one query however long the list (up to `API.BlockAccount.maximumBlocked`).
    func blockedAccounts(by blocker: Int64) async throws -> [BlockedEntry]

    /// Whether `blocker` has blocked `blocked`.
    func hasBlocked(_ blocker: Int64, _ blocked: Int64) async throws -> Bool

    /// The accounts `accountID` has blocked and those that blocked it: nothing of its activity (presence, read
    /// marks) reaches them, nor theirs it. One query either way.
    func blockPartners(of accountID: Int64) async throws -> Set<Int64>

    /// The people the account shares a direct conversation with whose request is still waiting for an answer, either
    /// way (both active, neither blocking the other): not contacts yet, but each already writes to the other's
    /// identity key, so each hears when it changes (`keys_updated`, `get_identity_keys`). Declined ones are not.
    func requestPartners(accountID: Int64) async throws -> [Int64]
}

/// One account on a block list, as `list_blocked` shows it.
public struct BlockedEntry: Sendable, Equatable {
    public var accountID: Int64
    public var displayName: String

    public init(accountID: Int64, displayName: String) {
        self.accountID = accountID
        self.displayName = displayName
    }
}
