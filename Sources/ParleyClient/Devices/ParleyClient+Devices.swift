import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// One device of this account, as the server lists it.
public struct DeviceInfo: Sendable, Equatable, Codable {
    /// The device's number within the account.
    public let id: UInt32
    /// The name it was given.
    public let name: String
    /// When it was added (ms since the epoch).
    public let createdAt: Int64
    /// When it last logged in or left (ms since the epoch).
    public let lastSeen: Int64
    /// Whether it is the device this client runs on.
    public let isThisDevice: Bool
}

extension ParleyClient {
    /// On the new device: asks the server for a device id with fresh prekeys, proving the account's
    /// login key (bound to the pairing, when there is one). Leaves the connection closed; `connect()` logs in.
    ///
    /// The connection is not logged in, so the server closes it after its login timeout. The prekeys (the slow
    /// part) are made before connecting, and a connection that closed before `add_device` went out is
    /// replaced (fresh nonce) up to three times. Once `add_device` was sent, it is never repeated: a lost answer
    /// might mean the device exists, and a second one must not be made.
    func addThisDevice(accountID: Int64, pairID: UInt32?, token: [UInt8]?) async throws(ClientError) -> UInt32 {
        let preKeys = try freshPreKeys(includeOneTime: true)
        var pairing: API.PairingTicket?
        if let pairID, let token { pairing = API.PairingTicket(pairID: pairID, token: token) }
        var attempt = 0
        while true {
            attempt += 1
            var sent = false
            do throws(ClientError) {
                try await connection.openAnonymous()
                let nonce = try await call(API.LoginStart.self, .init(email: email, deviceID: 0)).nonce
                let message = API.AddDevice.signedMessage(nonce: nonce, email: email, name: keys.deviceName)
                let signature: Data
                do { signature = try keys.authKey.signature(for: message) } catch { throw ClientError.storage("cannot sign") }
                let request = API.AddDevice.Request(
                    email: email, name: keys.deviceName, nonce: nonce, signature: Array(signature), pairing: pairing, preKeys: preKeys)
                sent = true
                let answer: API.AddDevice.Response
                do throws(ClientError) {
                    answer = try await call(API.AddDevice.self, request)
                } catch .notConnected {
                    sent = false  // `call` refused before writing anything
                    throw .notConnected
                }
                guard answer.accountID == accountID else { throw ClientError.badResponse("add_device answered for another account") }
                let device = answer.deviceID
                let createdAt = answer.createdAt
                keys.accountID = accountID
                keys.deviceID = device
                try saveKeys()
                // Only what was sent to this device from now on is fetched; older history comes from the archive.
                try database.write { try $0.put(Namespace.state, "cursor", Array(String(createdAt - 1).utf8)) }
                await connection.close()
                return device
            } catch {
                await connection.close()
                let dropped = error == .notConnected || error == .disconnected || error == .timeout(API.LoginStart.name)
                guard !sent, dropped, attempt < 3 else { throw error }
            }
        }
    }

    /// The keys a new device receives, sealed, when this one authorizes it.
    func pairingKeys() throws(ClientError) -> PairingKeys {
        let (accountID, _) = try identity()
        return PairingKeys(accountID: accountID, email: email, displayName: keys.displayName, identitySeed: keys.identitySeed,
                           authSeed: keys.authSeed)
    }

    /// Steps of `devices.authorize`.
    public enum AuthorizeProgress: Sendable, Equatable {
        /// The keys are sealed to the new device.
        case sealed(deviceName: String)
        /// The new device added itself.
        case joined(deviceID: UInt32)
        /// History chunks sent / total.
        case history(sent: Int, of: Int)
    }

    /// Refreshes this account's devices and catches up on messages and conversations (before a history archive).
    func catchUpForNewDevice() async throws(ClientError) {
        try await refreshOwnDevices()
        _ = try? await sync()
        _ = try? await conversations()
    }
}
