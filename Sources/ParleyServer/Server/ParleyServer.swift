import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ParleyCrypto
import ParleyWire
import ServiceLifecycle
import Synchronization

/// `parley server`: accepts connections and serves them until asked to shut down gracefully.
public final class ParleyServer: Service, Sendable {
    let context: ServerContext
    let router: RequestRouter
    let tls: ServerTLS?
    let budget: ConnectionBudget
    let lines: LineBudget
    let connections = Mutex<[ObjectIdentifier: ConnectionState]>([:])
    private let listening = Mutex<(channel: (any Channel)?, failure: (any Error)?, waiters: [CheckedContinuation<SocketAddress, any Error>])>((nil, nil, []))

    /// A server with its dependencies passed in.
    public init(context: ServerContext, router: RequestRouter = .standard) throws {
        self.context = context
        self.router = router
        self.tls = try ServerTLS(context.configuration)
        self.budget = ConnectionBudget(limits: context.configuration.limits)
        self.lines = LineBudget(capacity: context.configuration.limits.partialLineBudget)
    }

    /// The address the server listens on, once it does (port 0 resolves to the real port).
    public func boundAddress() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            listening.withLock { state in
                if let address = state.channel?.localAddress {
                    continuation.resume(returning: address)
                } else if let failure = state.failure {
                    continuation.resume(throwing: failure)
                } else {
                    state.waiters.append(continuation)
                }
            }
        }
    }

    /// Reads the TLS certificate and key again (on SIGHUP, after a renewal): new connections get them, open ones
    /// keep theirs. Throws, keeping the certificate in use, when the files cannot be used; false when TLS is off.
    @discardableResult
    public func reloadTLS() throws -> Bool {
        guard let tls else { return false }
        try tls.reload()
        context.logger.info("TLS certificate reloaded from \(tls.source)")
        return true
    }

    /// Binds the listening socket.
    private func bind(
        configuration: ServerConfiguration, tls: ServerTLS?
    ) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.maxMessagesPerRead, value: 64)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.current))
                    }
                    // At most four reads (64 KiB each) wait for a busy or stalled connection's handler, not ten.
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 4)))
                }
            }
    }

    public func run() async throws {
        let tls = self.tls
        let configuration = context.configuration
        let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            server = try await bind(configuration: configuration, tls: tls)
        } catch {
            // Whoever waits for the address (the embedded server, the start-up line) hears why, instead of waiting forever.
            let waiters = listening.withLock { state in
                state.failure = error
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume(throwing: error) }
            throw error
        }
        let waiters = listening.withLock { state in
            state.channel = server.channel
            defer { state.waiters = [] }
            return state.waiters
        }
        if let address = server.channel.localAddress {
            waiters.forEach { $0.resume(returning: address) }
        }

        // After a flood of connections has gone, hand the memory it used back to the system.
        let memory = MemoryReturn(minimumArrivals: 64)
        let trimmer = server.channel.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(5), delay: .seconds(5)) { [budget] _ in
            if memory.after(budget.activity) { budget.restartActivity() }
        }
        defer { trimmer.cancel() }
        let admin = await openAdminSocket()

        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                if let admin { group.addTask { await self.serveAdmin(admin) } }
                // However the accept loop ends, the admin socket ends with it.
                defer { admin?.channel.close(promise: nil) }
                try await server.executeThenClose { inbound in
                    for try await child in inbound {
                        group.addTask { await self.serve(child) }
                    }
                }
            }
        } onGracefulShutdown: {
            self.context.logger.info("shutting down: no new connections; finishing requests in flight")
            server.channel.close(promise: nil)
            admin?.channel.close(promise: nil)
            self.connections.withLock { $0.values.forEach { $0.drain() } }
        }
        context.logger.info("server stopped")
    }

    private func serve(_ child: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let remote = child.channel.remoteAddress?.ipAddress ?? "unknown"
        if let refusal = budget.admit(address: remote) {
            await refuse(child, refusal)
            return
        }
        let state = ConnectionState(channel: child.channel)
        let key = ObjectIdentifier(state)
        connections.withLock { $0[key] = state }
        ServerMetrics.connectionOpened()
        defer {
            connections.withLock { _ = $0.removeValue(forKey: key) }
            budget.release(address: remote, seat: state.seat)
            ServerMetrics.connectionClosed()
        }
        // The login deadline counts from the accept: requests do not extend it (a pairing device has its own).
        let limits = context.configuration.limits
        let timeout = TimeAmount.seconds(context.configuration.loginTimeoutSeconds)
        let pairingTimeout = TimeAmount.seconds(limits.pairingTimeoutSeconds)
        let timer = child.channel.eventLoop.scheduleRepeatedTask(
            initialDelay: timeout, delay: .nanoseconds(min(timeout.nanoseconds / 4, 1_000_000_000))
        ) { task in
            if state.closeIfLoginOverdue(loginTimeout: timeout, pairingTimeout: pairingTimeout) { task.cancel() }
        }
        defer { timer.cancel() }
        let handler = ConnectionHandler(
            context: context, router: router, state: state, remoteAddress: remote, budget: budget, lines: lines)
        do {
            try await child.executeThenClose { inbound, outbound in
                try await handler.run(inbound: inbound, outbound: outbound)
            }
        } catch {
            // One client's broken connection never affects the others.
            context.logger.debug("connection ended with an error", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// Tells a connection over the budget why, in one line, and closes it without reading anything.
    private func refuse(_ child: NIOAsyncChannel<ByteBuffer, ByteBuffer>, _ refusal: ConnectionBudget.Refusal) async {
        let line = try? WireMessage.failure(requestID: nil, error: WireError(.unavailable, refusal.message)).encodedLine()
        try? await child.executeThenClose { _, outbound in
            if let line { try await outbound.write(ByteBuffer(bytes: line)) }
        }
    }
}
