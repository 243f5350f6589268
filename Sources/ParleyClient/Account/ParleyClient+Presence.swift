extension ParleyClient {
    /// Contacts (people who share a conversation with this account) online now, as the server last
    /// said; empty while disconnected, since nothing is known then. Changes arrive as `.server`
    /// events `.onlineUsers`, `.userOnline` and `.userOffline`: read this again when one comes.
    public var onlineContacts: Set<Int64> {
        get async { await isConnected ? presence.accounts : [] }
    }

    /// Whether a contact is online now (see `onlineContacts`).
    public func isOnline(_ accountID: Int64) async -> Bool {
        await onlineContacts.contains(accountID)
    }
}
