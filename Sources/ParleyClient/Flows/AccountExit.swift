import Foundation

/// This device leaving the account, or the account leaving the server, with this device's copy erased.
public enum AccountExit {
    /// How signing out ended.
    public enum SignOut: Sendable, Equatable {
        /// The server forgot this device, and its local data was erased.
        case signedOut
        /// The device was no longer part of the account (removed elsewhere, or keys rotated): only its local
        /// data was left, and it was erased.
        case erasedOnly
    }

    /// Connects, signs this device out of the account and erases its local data.
    public static func signOut(_ client: ParleyClient) async throws(ClientError) -> SignOut {
        do {
            try await client.connect(reconnect: false)
            try await client.signOut()
            return .signedOut
        } catch .signedOut {
            try await client.eraseSignedOutDevice()
            return .erasedOnly
        } catch {
            await client.disconnect()
            throw error
        }
    }

    /// Connects and deletes the account from the server for good; this device's data for it is erased.
    public static func deleteAccount(_ client: ParleyClient) async throws(ClientError) {
        do {
            try await client.connect(reconnect: false)
            try await client.deleteAccount()
        } catch {
            await client.disconnect()
            throw error
        }
    }
}
