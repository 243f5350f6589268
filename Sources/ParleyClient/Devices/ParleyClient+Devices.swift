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
    /// This account's devices, oldest first.
    public func devices() async throws(ClientError) -> [DeviceInfo] {
        let thisDevice = keys.deviceID
        return try await call(API.ListDevices.self).devices.map { item in
            DeviceInfo(
                id: item.deviceID, name: item.name, createdAt: item.createdAt, lastSeen: item.lastSeen,
                isThisDevice: item.deviceID == thisDevice)
        }
    }

    /// Revokes another device of this account: the server drops it and closes its connections, and
    /// every sender (this device included) stops encrypting to it.
    public func removeDevice(_ id: UInt32) async throws(ClientError) {
        guard id != keys.deviceID else { throw .invalidInput("this is the device you are using; remove it from another device") }
        _ = try await call(API.RemoveDevice.self, .init(deviceID: id))
        try await refreshOwnDevices()
    }

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
                try await openConnection()
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
                await closeConnection()
                return device
            } catch {
                await closeConnection()
                let dropped = error == .notConnected || error == .disconnected || error == .timeout(API.LoginStart.name)
                guard !sent, dropped, attempt < 3 else { throw error }
            }
        }
    }

    /// On a signed-in device: authorizes the new device that shows `codeText`. Seals the account keys to
    /// it, waits until it has added itself, then sends this device's history.
    /// Returns the new device's name and id.
    public func authorizeDevice(
        code codeText: String, timeout: Duration = .seconds(300),
        progress: @escaping @Sendable (AuthorizeProgress) -> Void = { _ in }
    ) async throws(ClientError) -> (name: String, id: UInt32) {
        let code: PairingCode
        do { code = try PairingCode(parsing: codeText) } catch { throw .invalidInput("\(error)") }
        let (accountID, _) = try identity()
        let payload = PairingKeys(
            accountID: accountID, email: email, displayName: keys.displayName, identitySeed: keys.identitySeed,
            authSeed: keys.authSeed)
        return try await DeviceAuthorizer(dependencies: context).authorize(code, keys: payload, timeout: timeout, progress: progress)
    }

    /// Steps of `authorizeDevice`.
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
