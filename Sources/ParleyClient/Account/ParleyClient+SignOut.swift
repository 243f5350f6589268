import Foundation
import ParleyVault

extension ParleyClient {
    /// Signs this device out of the account for good and erases its local data.
    ///
    /// The server forgets the device (the account's other devices hear `device_removed`, senders stop
    /// encrypting to it), then the MainKey file and everything under this account's directory are deleted.
    /// History kept only on this device is gone afterwards; the account and its other devices stay. The client
    /// cannot be used after this call.
    public func signOut() async throws(ClientError) {
        _ = try await call("sign_out")
        await disconnect()
        lockVault()
        do { try MainKeyFile.erase(directory: directory) } catch { throw .vault(error) }
        broadcaster.yield(.signedOut)
    }
}
