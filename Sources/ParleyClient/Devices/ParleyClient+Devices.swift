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
        return try await call("list_devices").objects("devices").map { item throws(ClientError) in
            let id = UInt32(truncatingIfNeeded: try item.int("device_id"))
            return DeviceInfo(
                id: id, name: item.optionalString("name") ?? "", createdAt: item.optionalInt("created_at") ?? 0,
                lastSeen: item.optionalInt("last_seen") ?? 0, isThisDevice: id == thisDevice)
        }
    }

    /// Revokes another device of this account: the server drops it and closes its connections, and
    /// every sender (this device included) stops encrypting to it.
    public func removeDevice(_ id: UInt32) async throws(ClientError) {
        guard id != keys.deviceID else { throw .invalidInput("this is the device you are using; remove it from another device") }
        _ = try await call("remove_device", ["device_id": .int(id)])
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
        var fields = try freshPreKeyFields(includeOneTime: true)
        fields["email"] = .string(email)
        fields["name"] = .string(keys.deviceName)
        if let pairID, let token {
            fields["pair_id"] = .int(pairID)
            fields["token"] = .base64(token)
        }
        var attempt = 0
        while true {
            attempt += 1
            var sent = false
            do throws(ClientError) {
                try await openConnection()
                let nonce = try (await call("login_start", ["email": .string(email), "device_id": 0])).bytes("nonce")
                let message = Array("Parley-add-device-v1".utf8) + nonce + Array(email.utf8) + Array(keys.deviceName.utf8)
                let signature: Data
                do { signature = try keys.authKey.signature(for: message) } catch { throw ClientError.storage("cannot sign") }
                fields["nonce"] = .base64(nonce)
                fields["signature"] = .base64(Array(signature))
                sent = true
                let answer: [String: JSONValue]
                do throws(ClientError) {
                    answer = try await call("add_device", fields)
                } catch .notConnected {
                    sent = false  // `call` refused before writing anything
                    throw .notConnected
                }
                guard try answer.int("account_id") == accountID else { throw ClientError.badResponse("add_device answered for another account") }
                let device = UInt32(truncatingIfNeeded: try answer.int("device_id"))
                let createdAt = try answer.int("created_at")
                keys.accountID = accountID
                keys.deviceID = device
                try saveKeys()
                // Only what was sent to this device from now on is fetched; older history comes from the archive.
                try database.write { try $0.put(Namespace.state, "cursor", Array(String(createdAt - 1).utf8)) }
                await closeConnection()
                return device
            } catch {
                await closeConnection()
                let dropped = error == .notConnected || error == .disconnected || error == .timeout("login_start")
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
        let lookup = try await call("pairing_lookup", ["pair_id": .int(code.pairID)])
        guard lookup.optionalString("state") == "waiting" else {
            throw .invalidInput("this code was already used; start pairing again on the new device")
        }
        let name = try lookup.string("device_name")
        let newDeviceKey = try lookup.bytes("ephemeral_key")
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let channel: PairingChannel
        do {
            channel = try PairingChannel(
                code: code, ownPrivate: ephemeral, newDevicePublic: newDeviceKey,
                authorizingPublic: Array(ephemeral.publicKey.rawRepresentation), role: .authorizingDevice)
        } catch {
            throw .invalidInput("\(error)")
        }
        let payload = PairingKeys(
            accountID: accountID, email: email, displayName: keys.displayName, identitySeed: keys.identitySeed,
            authSeed: keys.authSeed)
        _ = try await call("authorize_device", [
            "pair_id": .int(code.pairID), "ephemeral_key": .base64(Array(ephemeral.publicKey.rawRepresentation)),
            "keys": .base64(channel.sealKeys(payload.encoded(), random: dependencies.random)),
        ])
        progress(.sealed(deviceName: name))
        let deviceID = try await waitUntilJoined(code.pairID, timeout: timeout)
        progress(.joined(deviceID: deviceID))
        try await refreshOwnDevices()
        // Everything received before the new device existed is in the archive; after, it gets its own copy.
        _ = try? await sync()
        _ = try? await conversations()
        let archive = try exportHistory()
        try await sendHistory(archive.encoded(), channel: channel, pairID: code.pairID, progress: progress)
        return (name, deviceID)
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

    private func waitUntilJoined(_ pairID: UInt32, timeout: Duration) async throws(ClientError) -> UInt32 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("pairing_lookup: cancelled") }
            let lookup = try await call("pairing_lookup", ["pair_id": .int(pairID)])
            if let device = lookup.optionalInt("device_id") { return UInt32(truncatingIfNeeded: device) }
            try? await Task.sleep(for: .milliseconds(300))
        }
        throw .timeout("pairing_lookup: the new device did not add itself")
    }

    private func sendHistory(
        _ bytes: [UInt8], channel: PairingChannel, pairID: UInt32, progress: @Sendable (AuthorizeProgress) -> Void
    ) async throws(ClientError) {
        let size = HistoryArchive.chunkSize
        let count = max(1, (bytes.count + size - 1) / size)
        var seq = 0
        while seq < count {
            let piece = Array(bytes[min(seq * size, bytes.count)..<min((seq + 1) * size, bytes.count)])
            let last = seq == count - 1
            let sealed = channel.sealChunk(piece, index: UInt32(seq), last: last, random: dependencies.random)
            do {
                _ = try await call("pairing_history_put", ["pair_id": .int(pairID), "seq": .int(seq), "chunk": .base64(sealed), "last": .bool(last)])
            } catch .server(let error) where error.code == .conflict {
                // A retry after a lost answer: continue where the server is.
                guard case .number(let stored)? = error.details["stored"], Int(stored) > seq else { throw .server(error) }
                seq = Int(stored)
                progress(.history(sent: seq, of: count))
                continue
            }
            seq += 1
            progress(.history(sent: seq, of: count))
        }
    }
}
