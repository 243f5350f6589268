import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// Adding a device from one already signed in (docs/CLIENT.md §9): the pairing code's channel, the account's keys
/// sealed to the new device, waiting until it has added itself, and this device's history sent to it in sealed
/// chunks (continuing where the server is after a lost answer).
struct DeviceAuthorizer: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasRandom & Sendable
    let dependencies: any Dependencies

    /// Seals the account's keys to the new device that shows `code`, waits until it has added itself, then sends
    /// this device's history; returns the new device's name and id.
    func authorize(
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
            channel = try PairingChannel(
                code: code, ownPrivate: ephemeral, newDevicePublic: newDeviceKey,
                authorizingPublic: Array(ephemeral.publicKey.rawRepresentation), role: .authorizingDevice)
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
