extension ParleyClient {
    /// Points this device at other addresses of its server (more nodes, a new front door). The account's
    /// data stays where it is: the addresses must reach the same server, whose database holds the account.
    /// Takes effect at the next connect; the current connection, if any, is left alone.
    public func setServer(_ address: ServerAddress) async throws(ClientError) {
        try keyBook.change { keys throws(ClientError) in keys.server = address }
        await connection.setServer(address)
    }
}
