import Crypto
import Foundation
import ParleyCrypto
import ParleyWire

/// A new device waiting to join an account (docs/API.md §13): show `code`, then `complete`.
///
/// The pairing connection is not logged in; only its token admits it to the pairing.
public actor DevicePairing {
    /// What to show the user: type this on a signed-in device.
    public nonisolated let code: PairingCode
    /// The account the device will join.
    public nonisolated let email: String
    /// When the server forgets the pairing.
    public nonisolated let expiresAt: Date
    let server: ServerAddress
    let deviceName: String
    let token: [UInt8]
    let ephemeral: Curve25519.KeyAgreement.PrivateKey
    /// Not logged in, so the server closes it after its login timeout: `call` reopens it as needed.
    var connection: WireConnection
    let dependencies: any ParleyClient.Dependencies

    init(code: PairingCode, email: String, expiresAt: Date, server: ServerAddress, deviceName: String, token: [UInt8],
         ephemeral: Curve25519.KeyAgreement.PrivateKey, connection: WireConnection, dependencies: any ParleyClient.Dependencies) {
        self.code = code
        self.email = email
        self.expiresAt = expiresAt
        self.server = server
        self.deviceName = deviceName
        self.token = token
        self.ephemeral = ephemeral
        self.connection = connection
        self.dependencies = dependencies
    }

    /// Opens a pairing at `server` for `email`'s account.
    public static func begin(
        email: String, server: ServerAddress, deviceName: String,
        dependencies: any ParleyClient.Dependencies = ClientDependencies()
    ) async throws(ClientError) -> DevicePairing {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        let (connection, _) = try await WireConnection.connect(toAnyNodeOf: server, group: dependencies.eventLoopGroup)
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        do throws(ClientError) {
            let answer = try await connection.call("pairing_start", [
                "email": .string(email), "device_name": .string(deviceName),
                "ephemeral_key": .base64(Array(ephemeral.publicKey.rawRepresentation)),
            ])
            let pairID = try answer.int("pair_id")
            guard let id = UInt32(exactly: pairID) else { throw ClientError.badResponse("pair_id out of range") }
            let token = try answer.bytes("token")
            let lifetime = answer.optionalInt("expires_in") ?? 900
            return DevicePairing(
                code: PairingCode.generate(pairID: id, random: dependencies.random), email: email,
                expiresAt: Date(timeIntervalSince1970: TimeInterval(dependencies.clock.now() / 1000 + lifetime)),
                server: server, deviceName: deviceName, token: token, ephemeral: ephemeral, connection: connection,
                dependencies: dependencies)
        } catch {
            await connection.close()
            throw error
        }
    }

    /// How far `complete` has come, for a progress line.
    public enum Progress: Sendable, Equatable {
        /// Keys received; the local vault is created.
        case authorized(displayName: String)
        /// The server added this device.
        case added(deviceID: UInt32)
        /// History chunks received so far.
        case history(received: Int)
    }

    /// Waits for a signed-in device to authorize the code, then creates the local account under `home`,
    /// adds this device at the server with fresh prekeys and imports the history the other device sends.
    /// Returns the opened client (not connected: call `connect()`).
    public func complete(
        home: URL, pin: String?, timeout: Duration = .seconds(900), historyTimeout: Duration = .seconds(120),
        progress: @escaping @Sendable (Progress) -> Void = { _ in }
    ) async throws(ClientError) -> ParleyClient {
        defer { Task { await self.close() } }
        let (authorizingKey, keysBox) = try await waitForKeys(timeout: timeout)
        let channel: PairingChannel
        let keys: PairingKeys
        do {
            channel = try PairingChannel(
                code: code, ownPrivate: ephemeral, newDevicePublic: Array(ephemeral.publicKey.rawRepresentation),
                authorizingPublic: authorizingKey, role: .newDevice)
            keys = try PairingKeys(decoding: try channel.openKeys(keysBox))
        } catch {
            throw .invalidInput("pairing failed: \(error)")
        }
        guard keys.email == email else { throw .invalidInput("pairing failed: the keys are for another account") }
        progress(.authorized(displayName: keys.displayName))
        let client = try ParleyClient.create(
            home: home, email: email, displayName: keys.displayName, server: server, pin: pin, deviceName: deviceName,
            seeds: (keys.identitySeed, keys.authSeed), dependencies: dependencies)
        let added = try await client.addThisDevice(accountID: keys.accountID, pairID: code.pairID, token: token)
        progress(.added(deviceID: added))
        let archive = try await receiveHistory(channel: channel, timeout: historyTimeout, progress: progress)
        if let archive { try await client.importHistory(archive) }
        _ = try? await call("pairing_finish", ["pair_id": .int(code.pairID), "token": .base64(token)])
        return client
    }

    /// Polls `pairing_wait` until the keys box is there.
    private func waitForKeys(timeout: Duration) async throws(ClientError) -> (key: [UInt8], box: [UInt8]) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("pairing_wait: cancelled") }
            guard let status = try await wait(["after_state": "waiting", "wait_ms": 20_000]) else { continue }
            if status.optionalString("state") != "waiting" {
                return (try status.bytes("ephemeral_key"), try status.bytes("keys"))
            }
        }
        throw .timeout("pairing_wait: no signed-in device authorized the code")
    }

    /// Waits for the history to be complete and reads it; nil when the other device sent none in time.
    private func receiveHistory(
        channel: PairingChannel, timeout: Duration, progress: @Sendable (Progress) -> Void
    ) async throws(ClientError) -> HistoryArchive? {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = [], seq = 0
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("pairing_wait: cancelled") }
            guard let status = try await wait(["after_chunks": .int(seq), "wait_ms": 5_000]) else { continue }
            let available = Int(status.optionalInt("history_chunks") ?? 0)
            while seq < available {
                let answer = try await call(
                    "pairing_history_get", ["pair_id": .int(code.pairID), "token": .base64(token), "seq": .int(seq)])
                let last = answer.bool("last")
                do {
                    bytes += try channel.openChunk(try answer.bytes("chunk"), index: UInt32(seq), last: last)
                } catch {
                    throw .invalidInput("pairing history: \(error)")
                }
                seq += 1
                progress(.history(received: seq))
                if last { return try HistoryArchive.decode(bytes) }
            }
        }
        return nil
    }

    /// One request on the pairing connection, reopened when the server closed it (its login timeout);
    /// every pairing request is safe to repeat.
    private func call(_ method: String, _ fields: [String: JSONValue]) async throws(ClientError) -> [String: JSONValue] {
        var attempt = 0
        while true {
            attempt += 1
            do {
                if !connection.isOpen {
                    connection = try await WireConnection.connect(toAnyNodeOf: server, group: dependencies.eventLoopGroup).0
                }
                return try await connection.call(method, fields)
            } catch {
                // The server closes a connection that has not logged in after its login timeout, and a busy
                // server may do so just as a request goes out: reconnect and repeat, a few times, briefly apart.
                guard error == .disconnected || error == .notConnected, attempt < 8 else { throw error }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    /// `pairing_wait`; a connection the server closed mid-wait (its login timeout) is an empty answer.
    private func wait(_ fields: [String: JSONValue]) async throws(ClientError) -> [String: JSONValue]? {
        var fields = fields
        fields["pair_id"] = .int(code.pairID)
        fields["token"] = .base64(token)
        do {
            return try await call("pairing_wait", fields)
        } catch .disconnected, .notConnected {
            try? await Task.sleep(for: .milliseconds(200))
            return nil
        }
    }

    private func close() async { await connection.close() }
}
