extension ParleyClient {
    /// Seals and stores a message in `writer`'s transaction, and indexes its words for search.
    func storeMessage(_ message: Message, in writer: ClientDatabase.Writer) throws {
        try MessageHistory.store(message, in: writer)
    }

    /// Applies `change` to a stored message and reports it.
    func updateMessage(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        if let message = try history.update(id, change) { broadcaster.yield(.messageUpdated(message)) }
    }
}
