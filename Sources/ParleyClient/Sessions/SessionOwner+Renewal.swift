import ParleyWire

/// New sessions and chains when people or keys change: what the server's notices and the conversation list ask.
extension SessionOwner {
    /// A group lost a member: a new sender-key chain before anything more is sent, and the conversation read again.
    func groupShrank(_ conversationID: Int64) async throws(ClientError) {
        try rekeyGroup(conversationID)
        try settleConversations(try await parts.conversationBook.fetchUpdate(of: conversationID))
    }

    /// Fresh sessions with each of `account`'s devices from their current bundles (the old ones archived).
    func renewSessions(with account: Int64) async throws(ClientError) {
        let answer = try await call(API.GetKeyBundle.self, .init(accountID: account))
        try startSessions(from: answer, account: account, renewing: Set(answer.devices.map(\.deviceID)))
    }

    /// Starts a new sender-key chain for a group at its next message (its members changed).
    func rekeyGroup(_ conversationID: Int64) throws(ClientError) {
        try sessions.rekeyGroup(conversationID)
    }

    /// Stores what the server said of the conversations; a group someone left gets a new sender-key chain before its
    /// new member list is stored.
    func settleConversations(_ update: ConversationBook.Update) throws(ClientError) {
        for id in update.shrunkGroups { try rekeyGroup(id) }
        try parts.conversationBook.apply(update)
    }
}
