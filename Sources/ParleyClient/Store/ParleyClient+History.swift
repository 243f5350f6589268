extension ParleyClient {
    /// Seals and stores a message in `writer`'s transaction, and indexes its words for search.
    func storeMessage(_ message: Message, in writer: ClientDatabase.Writer) throws {
        try MessageHistory.store(message, in: writer)
    }

    /// One stored message.
    public func storedMessage(_ id: Int64) throws(ClientError) -> Message? {
        try history.message(id)
    }

    /// The newest `limit` messages of a conversation, oldest first.
    public func messages(in conversationID: Int64, limit: Int = 100) throws(ClientError) -> [Message] {
        try history.messages(in: conversationID, limit: limit)
    }

    /// Full-text search over this device's decrypted history: messages containing every word of `query`,
    /// newest first. The index holds only keyed hashes of words, sealed like everything else.
    public func search(_ query: String, in conversationID: Int64? = nil, limit: Int = 50) throws(ClientError) -> [Message] {
        try history.search(query, in: conversationID, limit: limit)
    }

    /// Applies `change` to a stored message and reports it.
    func updateMessage(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        if let message = try history.update(id, change) { broadcaster.yield(.messageUpdated(message)) }
    }
}
