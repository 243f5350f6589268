import Foundation
import ParleyVault
import ParleyWire

extension ParleyClient {
    /// Signs this device out of the account for good and erases its local data.
    ///
    /// The server forgets the device (the account's other devices hear `device_removed`, senders stop
    /// encrypting to it), then the MainKey file and everything under this account's directory are deleted.
    /// History kept only on this device is gone afterwards; the account and its other devices stay. The client
    /// cannot be used after this call.
    public func signOut() async throws(ClientError) {
        _ = try await call(API.SignOut.self)
        await disconnect()
        try eraseLocalData()
        broadcaster.yield(.signedOut)
    }

    /// Erases the local data of a device the account no longer has (removed from another device, or the keys
    /// were rotated there: `ClientError.signedOut`), without asking the server, which would refuse its login.
    /// Never done on the server's word alone: the person asks for it (`parley account logout`).
    public func eraseSignedOutDevice() async throws(ClientError) {
        await disconnect()
        try eraseLocalData()
    }

    /// Closes the client: disconnects, drops the MainKey and lets another process (or a new client in this
    /// one) open the account. The client cannot be used afterwards.
    public func close() async {
        await disconnect()
        vault.lock()
        processLock.release()
    }

    /// Drops the key and deletes this account's directory, the MainKey file first.
    func eraseLocalData() throws(ClientError) {
        vault.lock()
        do { try MainKeyFile.erase(directory: directory) } catch { throw .vault(error) }
    }

    /// Keeps the password envelope of the keys (as registration does), for `checkPassword` and key rotation.
    func rememberEnvelope(_ envelope: [UInt8]) throws(ClientError) {
        try database.write { try $0.put(Namespace.account, "envelope", envelope) }
    }
}
