import Foundation
import ParleyWire

/// The connection's lifecycle, driven by `ConnectionStateMachine`: the machine decides (open, log in, set up,
/// close, wait, reconnect, stop) and this file carries out what it decides, telling it what happened.
extension ParleyClient {
    /// Connects, logs in, tops up keys, sends what waits in the outbox and catches up on messages.
    /// When `reconnect` is set, a lost connection is retried with backoff (1 s → 30 s) until `disconnect()`.
    /// With `catchUp` false the first sync is left to the caller (who wants what `sync()` returns).
    public func connect(reconnect: Bool = true, catchUp: Bool = true) async throws(ClientError) {
        _ = try identity()
        let actions = lifecycle.connectRequested(reconnect: reconnect)
        guard actions.isEmpty, lifecycle.attemptUnderWay else {
            return try await carryOut(actions, catchUp: catchUp)
        }
        // A reconnect was already opening, logging in or setting up: its outcome is this call's, so a device that
        // was removed or signed out meanwhile hears it here instead of a success that never happened.
        let deadline = ContinuousClock.now + .seconds(120)
        while lifecycle.attemptUnderWay, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        switch lifecycle.state {
        case .ready: return
        case .stopped(.signedOut): throw .signedOut
        case .stopped(.disabled): throw .server(WireError(.forbidden, "this account is disabled; ask the server's operator"))
        default: throw .notConnected
        }
    }

    /// Closes the connection and stops reconnecting.
    public func disconnect() async {
        await closeConnection()
    }

    /// Opens a socket without logging in (registration, adding a device), unless one is open.
    func openConnection() async throws(ClientError) {
        try await carryOut(lifecycle.anonymousRequested())
    }

    /// Closes whatever connection there is and stops reconnecting.
    func closeConnection() async {
        try? await carryOut(lifecycle.disconnectRequested())
    }

    /// Checks the connection answers (after a resume); reconnects if it does not.
    public func healthCheck() async -> Bool {
        do {
            _ = try await call(API.Ping.self)
            return true
        } catch {
            guard let generation = lifecycle.generation else { return false }
            // The socket may still look open: close it, and treat it as lost now rather than when it says so.
            let dead = connection
            connection = nil
            await dead?.close()
            try? await carryOut(lifecycle.lost(generation: generation))
            return false
        }
    }

    /// The node the client is connected to, or last was.
    public var currentNode: ServerEndpoint {
        keys.server.endpoints[nodeIndex % keys.server.endpoints.count]
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

    // MARK: Carrying out the machine's actions

    /// Carries out `actions` in order. A step that fails (open, login, setup) tells the machine, carries out what
    /// it answers, and throws to whoever waits for the step: the user's `connect()`, or the reconnect timer.
    private func carryOut(_ actions: [ConnectionStateMachine.Action], catchUp: Bool = true) async throws(ClientError) {
        for action in actions {
            switch action {
            case .open(let generation): try await open(generation, catchUp: catchUp)
            case .logIn: try await logIn(catchUp: catchUp)
            case .setUp: try await setUp(catchUp: catchUp)
            case .close:
                let old = connection
                connection = nil
                await old?.close()
            case .reportDisconnected: broadcaster.yield(.connection(.disconnected))
            case .scheduleReconnect(let attempt): scheduleReconnect(attempt)
            case .cancelReconnect:
                reconnectTimer?.cancel()
                reconnectTimer = nil
            case .reportStopped(.signedOut): broadcaster.yield(.signedOut)
            case .reportStopped(.disabled): broadcaster.yield(.server(.accountDisabled(.init(accountID: keys.accountID ?? 0))))
            }
        }
    }

    /// Opens socket `generation` on one of the server's nodes and says hello.
    private func open(_ generation: Int, catchUp: Bool) async throws(ClientError) {
        let notifications = NotificationPump(client: self)
        do throws(ClientError) {
            // A server of several nodes: start with the node that answered last, then try the others in turn.
            let (opened, node) = try await WireConnection.connect(
                toAnyNodeOf: keys.server, startingAt: nodeIndex, group: dependencies.eventLoopGroup,
                onNotification: { event, fields in notifications.push(event, fields) },
                onClose: { Task { await self.socketClosed(generation: generation) } })
            do throws(ClientError) {
                try await Self.hello(on: opened)
            } catch {
                await opened.close()
                throw error
            }
            guard lifecycle.generation == generation else {
                await opened.close()   // disconnected meanwhile
                throw .notConnected
            }
            connection = opened
            nodeIndex = node
        } catch {
            // Next time start with the node after the one that was tried first.
            nodeIndex = (nodeIndex + 1) % keys.server.endpoints.count
            try? await carryOut(lifecycle.openFailed(generation: generation))
            throw error
        }
        try await carryOut(lifecycle.opened(generation: generation), catchUp: catchUp)
    }

    /// Logs in on the open socket.
    private func logIn(catchUp: Bool) async throws(ClientError) {
        guard let generation = lifecycle.generation else { throw .notConnected }
        do {
            try await login()
        } catch {
            let next = lifecycle.loginFailed(generation: generation, Self.failure(error))
            // A socket the server had closed (at its login timeout) is replaced once; that attempt decides.
            if next.contains(where: { if case .open = $0 { true } else { false } }) {
                return try await carryOut(next, catchUp: catchUp)
            }
            try? await carryOut(next)
            throw error
        }
        try await carryOut(lifecycle.loggedIn(generation: generation), catchUp: catchUp)
    }

    /// After login: keys, own devices, the outbox, and (with `catchUp`) the messages, marks and titles missed.
    private func setUp(catchUp: Bool) async throws(ClientError) {
        guard let generation = lifecycle.generation else { throw .notConnected }
        do {
            try await keyUpkeep()
            try await refreshOwnDevices()
            broadcaster.yield(.connection(.connected))
            try await flushOutbox()
            if catchUp {
                try await sync()
                try await messageActions.refreshStates()
                // Members who joined while this creator was away learn the group's title now.
                try await refreshConversations()
                try await shareTitlesWithNewMembers()
            }
        } catch {
            try? await carryOut(lifecycle.setupFailed(generation: generation, Self.failure(error)))
            throw error
        }
        let next = lifecycle.setUp(generation: generation)
        try? await carryOut(next)
        // The socket went while the setup ran: the setup did not reach the server in full.
        if !next.isEmpty { throw .disconnected }
    }

    /// How a step's error counts for the machine.
    private static func failure(_ error: ClientError) -> ConnectionStateMachine.Failure {
        switch error {
        case .signedOut: .signedOut
        case .server(let error) where error.code == .forbidden: .disabled
        case .disconnected, .notConnected: .socketGone
        default: .transient
        }
    }

    /// Socket `generation` closed.
    func socketClosed(generation: Int) async {
        guard lifecycle.generation == generation else { return }
        let next = lifecycle.lost(generation: generation)
        if lifecycle.generation == nil { connection = nil }
        try? await carryOut(next)
    }

    /// Waits the policy's delay for reconnect attempt `attempt`, then tries.
    private func scheduleReconnect(_ attempt: Int) {
        let delay = reconnectPolicy.delay(attempt: attempt, jitter: Double.random(in: 0...1))
        broadcaster.yield(.connection(.reconnecting(attempt: attempt + 1, delaySeconds: delay)))
        reconnectTimer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self?.reconnectTimerFired()
        }
    }

    private func reconnectTimerFired() async {
        reconnectTimer = nil
        // A failed attempt already told the machine, which scheduled the next.
        try? await carryOut(lifecycle.reconnectTimerFired())
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
