/// What an operator sees of an account: metadata the server needs anyway, never a message or a key.
public struct AccountSummary: Sendable, Equatable {
    public var id: Int64
    public var email: String
    public var displayName: String
    /// Whether the e-mail address was confirmed (false: a registration that was never finished).
    public var isActive: Bool
    /// When an operator disabled it, if they did.
    public var disabledAt: Int64?
    public var createdAt: Int64
    public var devices: Int
    /// The latest login or disconnect of any of its devices.
    public var lastSeen: Int64?
    /// Ciphertexts waiting for its devices, and their size in bytes.
    public var waitingEnvelopes: Int
    public var waitingBytes: Int64
    /// Conversations it is an active member of.
    public var conversations: Int
    /// Uploaded files it owns, and their size in bytes.
    public var files: Int
    public var fileBytes: Int64
}

/// The whole server in numbers (`parley server admin stats`).
public struct ServerStats: Sendable, Equatable {
    public var accounts: Int
    public var pendingAccounts: Int
    public var disabledAccounts: Int
    public var devices: Int
    public var conversations: Int
    /// Ciphertexts stored for devices that have not fetched them yet, and their size in bytes.
    public var envelopes: Int
    public var ciphertextBytes: Int64
    public var files: Int
    public var fileBytes: Int64
}

/// What deleting an account touched, so the server can tell the people concerned.
public struct DeletedAccount: Sendable, Equatable {
    public var accountID: Int64
    public var email: String
    /// Accounts that had it as a contact (an accepted conversation, no block), before the deletion.
    public var contacts: [Int64]
    /// Direct conversations that went with it, and the other person in each.
    public var directConversations: [Conversation]
    /// Groups it left, with their remaining active members.
    public var groups: [Conversation]

    /// A conversation and the accounts to tell about it.
    public struct Conversation: Sendable, Equatable {
        public var id: Int64
        public var members: [Int64]
    }
}

/// The operator's view and powers over accounts (docs/OPERATIONS.md §8), and an owner's own deletion.
public protocol AdminStore: Sendable {
    /// Every account (pending ones included), oldest first.
    func accountSummaries() async throws -> [AccountSummary]

    /// One account, or nil when there is none with this id.
    func accountSummary(id: Int64) async throws -> AccountSummary?

    /// Disables (`at` a time) or enables (`at` nil) an account; false when there is no such account.
    func setDisabled(accountID: Int64, at: Int64?) async throws -> Bool

    /// In one transaction, removes the account and everything the server holds for it: devices, prekeys,
    /// ciphertexts for it and messages it sent, files, location, profile, avatar, blocks, login state, a
    /// pending registration's invite; its direct conversations go for the other person too, and it leaves
    /// its groups (a group it created passes to its longest-standing remaining member, or goes when none is
    /// left). Nil, changing nothing, when there is no such account.
    func deleteAccount(id: Int64) async throws -> DeletedAccount?

    /// Counts for `parley server admin stats`.
    func serverStats() async throws -> ServerStats
}
