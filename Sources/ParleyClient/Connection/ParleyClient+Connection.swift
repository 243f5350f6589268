import Foundation
import ParleyWire

extension ParleyClient {
    /// Connects, logs in, tops up keys, sends what waits in the outbox and catches up on messages.
    /// When `reconnect` is set, a lost connection is retried with backoff (1 s → 30 s) until `disconnect()`.
    /// With `catchUp` false the first sync is left to the caller (who wants what `sync()` returns).
    public func connect(reconnect: Bool = true, catchUp: Bool = true) async throws(ClientError) {
        _ = try identity()
        wantsConnection = reconnect
        try await establish(catchUp: catchUp)
    }

    /// Closes the connection and stops reconnecting.
    public func disconnect() async {
        wantsConnection = false
        reconnectTask?.cancel()
        reconnectTask = nil
        await closeConnection()
    }

    /// Opens the socket (no login): registration uses this.
    func openConnection() async throws(ClientError) {
        if let connection, connection.isOpen { return }
        let notifications = NotificationPump(client: self)
        connectionGeneration += 1
        let generation = connectionGeneration
        // A server of several nodes: start with the node that answered last, then try the others in turn.
        do throws(ClientError) {
            let (opened, node) = try await WireConnection.connect(
                toAnyNodeOf: keys.server, startingAt: nodeIndex, group: dependencies.eventLoopGroup,
                onNotification: { event, fields in notifications.push(event, fields) },
                onClose: { Task { await self.connectionLost(generation: generation) } })
            do throws(ClientError) {
                try await Self.hello(on: opened)
            } catch {
                await opened.close()
                throw error
            }
            connection = opened
            nodeIndex = node
        } catch {
            // Next time start with the node after the one that was tried first.
            nodeIndex = (nodeIndex + 1) % keys.server.endpoints.count
            throw error
        }
    }

    /// States the protocol version this client speaks (docs/API.md §1). A server that speaks another refuses in
    /// words naming both (`unsupported_protocol`); a server from before `hello` existed speaks version 1.
    static func hello(on connection: WireConnection) async throws(ClientError) {
        let answer: API.Hello.Response
        do {
            answer = try await connection.call(API.Hello.self, .init(protocolVersion: Int64(WireProtocol.version), client: "ParleyClient"))
        } catch .server(let error) where error.code == .unknownMethod {
            return
        }
        let version = answer.protocolVersion
        guard version == Int64(WireProtocol.version) else { throw .protocolMismatch(server: Int(clamping: version)) }
    }

    /// The node the client is connected to, or last was.
    public var currentNode: ServerEndpoint {
        keys.server.endpoints[nodeIndex % keys.server.endpoints.count]
    }

    func closeConnection() async {
        let old = connection
        connection = nil
        connectionGeneration += 1   // a close we asked for is not a loss to recover from
        await old?.close()
    }

    /// One full connect: socket, login, upkeep, outbox, sync.
    private func establish(catchUp: Bool = true) async throws(ClientError) {
        try await openConnection()
        awaitingLogin = true
        defer { awaitingLogin = false }
        do {
            do {
                try await login()
            } catch .disconnected, .notConnected {
                // A socket opened earlier (registration, pairing) that the server closed at its login
                // timeout: open a fresh one and log in there.
                await closeConnection()
                try await openConnection()
                try await login()
            }
            awaitingLogin = false
            try await keyUpkeep()
            try await refreshOwnDevices()
            broadcaster.yield(.connection(.connected))
            try await flushOutbox()
            if catchUp {
                try await sync()
                try await refreshMessageStates()
                // Members who joined while this creator was away learn the group's title now.
                try await refreshConversations()
                try await shareTitlesWithNewMembers()
            }
        } catch {
            if case .signedOut = error { wantsConnection = false }
            await closeConnection()
            throw error
        }
    }

    /// The socket closed: tell subscribers, and start reconnecting if wanted.
    func connectionLost(generation: Int) {
        // Only the current connection's loss matters; an older one was replaced or closed on purpose.
        guard generation == connectionGeneration else { return }
        broadcaster.yield(.connection(.disconnected))
        connection = nil
        guard wantsConnection, reconnectTask == nil else { return }
        reconnectTask = Task { await self.reconnectLoop() }
    }

    private func reconnectLoop() async {
        var attempt = 0
        defer { reconnectTask = nil }
        while wantsConnection, !Task.isCancelled {
            let delay = reconnectPolicy.delay(attempt: attempt, jitter: Double.random(in: 0...1))
            broadcaster.yield(.connection(.reconnecting(attempt: attempt + 1, delaySeconds: delay)))
            try? await Task.sleep(for: .seconds(delay))
            guard wantsConnection, !Task.isCancelled else { return }
            do {
                try await establish()
                return
            } catch .signedOut {
                return
            } catch .server(let error) where error.code == .forbidden {
                return  // the account is disabled (`login`)
            } catch {
                attempt += 1
            }
        }
    }

    /// Checks the connection answers (after a resume); reconnects if it does not.
    public func healthCheck() async -> Bool {
        do {
            _ = try await call(API.Ping.self)
            return true
        } catch {
            let generation = connectionGeneration
            await closeConnection()
            connectionGeneration = generation
            connectionLost(generation: generation)
            return false
        }
    }
}

/// Carries notifications from the event loop into the actor in arrival order.
final class NotificationPump: Sendable {
    private let continuation: AsyncStream<(String, [String: JSONValue])>.Continuation

    init(client: ParleyClient) {
        let (stream, continuation) = AsyncStream<(String, [String: JSONValue])>.makeStream()
        self.continuation = continuation
        Task {
            for await (event, fields) in stream { await client.handleNotification(event, fields) }
        }
    }

    func push(_ event: String, _ fields: [String: JSONValue]) {
        continuation.yield((event, fields))
    }

    deinit { continuation.finish() }
}
