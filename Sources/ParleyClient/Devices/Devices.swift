import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// This account's devices (docs/CLIENT.md §9): listing and revoking them, and adding one from this device — the
/// pairing code's channel, the account's keys sealed to the new device, waiting until it has added itself, and this
/// device's history sent to it in sealed chunks (continuing where the server is after a lost answer).
public struct Devices: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasRandom & Sendable
    let dependencies: any Dependencies

    /// This account's devices, oldest first.
    public func list() async throws(ClientError) -> [DeviceInfo] {
        let thisDevice = try await dependencies.account.confirmedIdentity().deviceID
        return try await dependencies.server.call(API.ListDevices.self).devices.map { item in
            DeviceInfo(
                id: item.deviceID, name: item.name, createdAt: item.createdAt, lastSeen: item.lastSeen,
                isThisDevice: item.deviceID == thisDevice)
        }
    }

    /// Revokes another device of this account: the server drops it and closes its connections, and
    /// every sender (this device included) stops encrypting to it.
    public func remove(_ id: UInt32) async throws(ClientError) {
        guard id != (try await dependencies.account.confirmedIdentity().deviceID) else {
            throw .invalidInput("this is the device you are using; remove it from another device")
        }
        _ = try await dependencies.server.call(API.RemoveDevice.self, .init(deviceID: id))
        try await dependencies.account.refreshOwnDevices()
    }

    /// On a signed-in device: authorizes the new device that shows `codeText`. Seals the account keys to
    /// it, waits until it has added itself, then sends this device's history.
    /// Returns the new device's name and id.
    public func authorize(
        code codeText: String, timeout: Duration = .seconds(300),
        progress: @escaping @Sendable (ParleyClient.AuthorizeProgress) -> Void = { _ in }
    ) async throws(ClientError) -> (name: String, id: UInt32) {
        let code: PairingCode
        do { code = try PairingCode(parsing: codeText) } catch { throw .invalidInput("\(error)") }
        return try await authorize(code, keys: try await dependencies.account.pairingKeys(), timeout: timeout, progress: progress)
    }

    /// Seals the account's keys to the new device that shows `code`, waits until it has added itself, then sends
    /// this device's history; returns the new device's name and id.
    private func authorize(
        _ code: PairingCode, keys payload: PairingKeys, timeout: Duration, progress: @escaping @Sendable (ParleyClient.AuthorizeProgress) -> Void
    ) async throws(ClientError) -> (name: String, id: UInt32) {
        let lookup = try await dependencies.server.call(API.PairingLookup.self, .init(pairID: code.pairID))
        guard lookup.state == .waiting else {
            throw .invalidInput("this code was already used; start pairing again on the new device")
        }
        let name = lookup.deviceName
        let newDeviceKey = lookup.ephemeralKey
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let channel: PairingChannel
        do {
            // scrypt at 2^15 (32 MiB): on a thread of its own, not one of the pool's (OwnThread).
            channel = try await OwnThread.run { () throws(PairingError) in
                try PairingChannel(
                    code: code, ownPrivate: ephemeral, newDevicePublic: newDeviceKey,
                    authorizingPublic: Array(ephemeral.publicKey.rawRepresentation), role: .authorizingDevice)
            }
        } catch {
            throw .invalidInput("\(error)")
        }
        _ = try await dependencies.server.call(API.AuthorizeDevice.self, .init(
            pairID: code.pairID, ephemeralKey: Array(ephemeral.publicKey.rawRepresentation),
            keys: channel.sealKeys(payload.encoded(), random: dependencies.random)))
        progress(.sealed(deviceName: name))
        let deviceID = try await waitUntilJoined(code.pairID, timeout: timeout)
        progress(.joined(deviceID: deviceID))
        // Everything received before the new device existed is in the archive; after, it gets its own copy.
        try await dependencies.account.catchUpForNewDevice()
        let archive = try MessageHistory(dependencies: dependencies).exportArchive()
        try await sendHistory(archive.encoded(), channel: channel, pairID: code.pairID, progress: progress)
        return (name, deviceID)
    }

    private func waitUntilJoined(_ pairID: UInt32, timeout: Duration) async throws(ClientError) -> UInt32 {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("\(API.PairingLookup.name): cancelled") }
            let lookup = try await dependencies.server.call(API.PairingLookup.self, .init(pairID: pairID))
            if let device = lookup.deviceID { return device }
            try? await Task.sleep(for: .milliseconds(300))
        }
        throw .timeout("\(API.PairingLookup.name): the new device did not add itself")
    }

    private func sendHistory(
        _ bytes: [UInt8], channel: PairingChannel, pairID: UInt32, progress: @Sendable (ParleyClient.AuthorizeProgress) -> Void
    ) async throws(ClientError) {
        let size = HistoryArchive.chunkSize
        let count = max(1, (bytes.count + size - 1) / size)
        var seq = 0
        while seq < count {
            let piece = Array(bytes[min(seq * size, bytes.count)..<min((seq + 1) * size, bytes.count)])
            let last = seq == count - 1
            let sealed = channel.sealChunk(piece, index: UInt32(seq), last: last, random: dependencies.random)
            do {
                _ = try await dependencies.server.call(API.PairingHistoryPut.self, .init(pairID: pairID, seq: Int64(seq), chunk: sealed, last: last))
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
