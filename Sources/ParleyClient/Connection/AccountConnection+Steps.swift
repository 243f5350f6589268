import Foundation
import ParleyWire

/// Carrying out the machine's actions: open, log in, set up, close, report, wait and reconnect.
extension AccountConnection {
    /// Carries out `actions` in order. A step that fails (open, login, setup) tells the machine, carries out what
    /// it answers, and throws to whoever waits for the step: the user's `connect()`, or the reconnect timer.
    func carryOut(_ actions: [ConnectionStateMachine.Action], catchUp: Bool = true) async throws(ClientError) {
        for action in actions {
            switch action {
            case .open(let generation): try await open(generation, catchUp: catchUp)
            case .logIn: try await logIn(catchUp: catchUp)
            case .setUp: try await setUp(catchUp: catchUp)
            case .close:
                let old = connection
                connection = nil
                await old?.close()
            case .reportDisconnected: events.yield(.connection(.disconnected))
            case .scheduleReconnect(let attempt): scheduleReconnect(attempt)
            case .cancelReconnect:
                reconnectTimer?.cancel()
                reconnectTimer = nil
            case .reportStopped(.signedOut): events.yield(.signedOut)
            case .reportStopped(.disabled): events.yield(.server(.accountDisabled(.init(accountID: accountID))))
            }
        }
    }

    /// Opens socket `generation` on one of the server's nodes and says hello.
    private func open(_ generation: Int, catchUp: Bool) async throws(ClientError) {
        _ = try reachedOwner()
        let notifications = NotificationPump(handler: noticeHandler)
        do throws(ClientError) {
            // A server of several nodes: start with the node that answered last, then try the others in turn.
            let (opened, node) = try await WireConnection.connect(
                toAnyNodeOf: server, startingAt: nodeIndex, group: group,
                onNotification: { event, fields, lineBytes in notifications.push(event, fields, lineBytes: lineBytes) },
                onClose: { [weak self] in Task { await self?.socketClosed(generation: generation) } })
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
            nodeIndex = (nodeIndex + 1) % server.endpoints.count
            try? await carryOut(lifecycle.openFailed(generation: generation))
            throw error
        }
        try await carryOut(lifecycle.opened(generation: generation), catchUp: catchUp)
    }

    /// Logs in on the open socket (the owner signs).
    private func logIn(catchUp: Bool) async throws(ClientError) {
        guard let generation = lifecycle.generation else { throw .notConnected }
        do {
            try await reachedOwner().logIn()
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

    /// After login, the owner's set-up; a socket that went meanwhile means the set-up did not reach the server.
    private func setUp(catchUp: Bool) async throws(ClientError) {
        guard let generation = lifecycle.generation else { throw .notConnected }
        do {
            try await reachedOwner().setUp(catchUp: catchUp)
        } catch {
            try? await carryOut(lifecycle.setupFailed(generation: generation, Self.failure(error)))
            throw error
        }
        let next = lifecycle.setUp(generation: generation)
        try? await carryOut(next)
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

    /// Waits the policy's delay for reconnect attempt `attempt`, then tries.
    private func scheduleReconnect(_ attempt: Int) {
        let delay = policy.delay(attempt: attempt, jitter: Double.random(in: 0...1))
        events.yield(.connection(.reconnecting(attempt: attempt + 1, delaySeconds: delay)))
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
