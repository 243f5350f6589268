import ParleyWire

extension ParleyClient {
    /// Deletes the account on the server for good, then erases this device's local data for it.
    ///
    /// The server removes the account and everything it holds for it (docs/API.md §3): devices, prekeys,
    /// ciphertexts, messages it sent, files, location, profile; its direct conversations go for the other
    /// person too, and it leaves its groups. Its contacts hear `account_deleted`; its other devices are
    /// disconnected and keep only what they stored, until they are logged out. The client cannot be used
    /// afterwards.
    public func deleteAccount() async throws(ClientError) {
        _ = try await call(API.DeleteAccount.self, .init(confirm: email))
        await disconnect()
        try eraseLocalData()
        broadcaster.yield(.signedOut)
    }
}
