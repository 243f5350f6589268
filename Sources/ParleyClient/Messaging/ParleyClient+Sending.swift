/// Sending, as the account offers it; the outbox is `Outgoing`'s, sealing and sending `SessionOwner`'s.
extension ParleyClient {
    /// Sends `text` to a conversation. Without a connection the message waits in the outbox (`Outgoing`).
    public nonisolated func send(_ text: String, to conversationID: Int64, replyTo: Int64? = nil) async throws(ClientError) -> SendOutcome {
        try await outgoing.send(text, to: conversationID, replyTo: replyTo)
    }

    /// Forwards a message to another conversation; the copy names its original sender and time.
    public nonisolated func forward(_ messageID: Int64, to conversationID: Int64) async throws(ClientError) -> SendOutcome {
        try await outgoing.forward(messageID, to: conversationID)
    }

    /// Messages waiting to be sent.
    public func pendingCount() throws(ClientError) -> Int {
        try outgoing.pendingCount()
    }
}
