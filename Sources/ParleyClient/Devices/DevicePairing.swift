import Crypto
import Foundation
import NIOCore
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
            let answer = try await connection.call(API.PairingStart.self, .init(
                email: email, deviceName: deviceName, ephemeralKey: Array(ephemeral.publicKey.rawRepresentation)))
            return DevicePairing(
                code: PairingCode.generate(pairID: answer.pairID, random: dependencies.random), email: email,
                expiresAt: Date(timeIntervalSince1970: TimeInterval(dependencies.clock.now() / 1000 + answer.expiresIn)),
                server: server, deviceName: deviceName, token: answer.token, ephemeral: ephemeral, connection: connection,
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
            // scrypt at 2^15 (32 MiB): on a thread of its own, not one of the pool's (OwnThread).
            let (code, ephemeral) = (code, ephemeral)
            channel = try await OwnThread.run { () throws(PairingError) in
                try PairingChannel(
                    code: code, ownPrivate: ephemeral, newDevicePublic: Array(ephemeral.publicKey.rawRepresentation),
                    authorizingPublic: authorizingKey, role: .newDevice)
            }
            keys = try PairingKeys(decoding: try channel.openKeys(keysBox))
        } catch {
            throw .invalidInput("pairing failed: \(error)")
        }
        guard keys.email == email else { throw .invalidInput("pairing failed: the keys are for another account") }
        progress(.authorized(displayName: keys.displayName))
        let client = try ParleyClient.create(
            home: home, email: email, displayName: keys.displayName, server: server, pin: pin, deviceName: deviceName,
            seeds: (keys.identitySeed, keys.authSeed), dependencies: dependencies)
        let added = try await client.registration.addThisDevice(accountID: keys.accountID, pairID: code.pairID, token: token)
        progress(.added(deviceID: added))
        let archive = try await receiveHistory(channel: channel, timeout: historyTimeout, progress: progress)
        if let archive { try client.history.importArchive(archive) }
        _ = try? await call(API.PairingFinish.self, ticket)
        return client
    }

    /// Polls `pairing_wait` until the keys box is there.
    private func waitForKeys(timeout: Duration) async throws(ClientError) -> (key: [UInt8], box: [UInt8]) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("\(API.PairingWait.name): cancelled") }
            guard let status = try await wait(afterState: .waiting, waitMilliseconds: 20_000) else { continue }
            if status.state != .waiting {
                guard let key = status.ephemeralKey, let box = status.keys else {
                    throw .badResponse("the answer to \(API.PairingWait.name): a pairing past 'waiting' without its keys")
                }
                return (key, box)
            }
        }
        throw .timeout("\(API.PairingWait.name): no signed-in device authorized the code")
    }

    /// Waits for the history to be complete and reads it; nil when the other device sent none in time.
    private func receiveHistory(
        channel: PairingChannel, timeout: Duration, progress: @Sendable (Progress) -> Void
    ) async throws(ClientError) -> HistoryArchive? {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = [], seq = 0
        while ContinuousClock.now < deadline {
            guard !Task.isCancelled else { throw .timeout("\(API.PairingWait.name): cancelled") }
            guard let status = try await wait(afterChunks: Int64(seq), waitMilliseconds: 5_000) else { continue }
            let available = Int(status.historyChunks)
            while seq < available {
                let answer = try await call(API.PairingHistoryGet.self, .init(ticket: ticket, seq: Int64(seq)))
                let last = answer.last
                do {
                    bytes += try channel.openChunk(answer.chunk, index: UInt32(seq), last: last)
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
    private func call(
        _ method: String, _ fields: [String: JSONValue], serverWait: TimeAmount = .zero
    ) async throws(ClientError) -> [String: JSONValue] {
        var attempt = 0
        while true {
            attempt += 1
            do {
                if !connection.isOpen {
                    connection = try await WireConnection.connect(toAnyNodeOf: server, group: dependencies.eventLoopGroup).0
                }
                return try await connection.call(method, fields, serverWait: serverWait)
            } catch {
                // The server closes a connection that has not logged in after its login timeout, and a busy
                // server may do so just as a request goes out: reconnect and repeat, a few times, briefly apart.
                guard error == .disconnected || error == .notConnected, attempt < 8 else { throw error }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
        }
    }

    /// One typed request on the pairing connection (see `call(_:_:)`).
    private func call<M: APIMethod>(
        _ method: M.Type, _ request: M.Request, serverWait: TimeAmount = .zero
    ) async throws(ClientError) -> M.Response {
        try M.response(from: try await call(M.name, request.fields, serverWait: serverWait))
    }

    /// The pairing's id and token, which admit this device to it.
    private var ticket: API.PairingTicket { API.PairingTicket(pairID: code.pairID, token: token) }

    /// `pairing_wait`; a connection the server closed mid-wait (its login timeout) is an empty answer.
    private func wait(
        afterState: API.PairingState? = nil, afterChunks: Int64? = nil, waitMilliseconds: Int64
    ) async throws(ClientError) -> API.PairingWait.Response? {
        do {
            return try await call(API.PairingWait.self, .init(
                ticket: ticket, afterState: afterState, afterChunks: afterChunks, waitMilliseconds: waitMilliseconds),
                serverWait: .milliseconds(waitMilliseconds))
        } catch .disconnected, .notConnected {
            try? await Task.sleep(for: .milliseconds(200))
            return nil
        }
    }

    private func close() async { await connection.close() }
}
