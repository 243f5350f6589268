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
    let connections = OpenConnections()
    private let listening = Mutex<(channel: (any Channel)?, failure: (any Error)?, waiters: [CheckedContinuation<SocketAddress, any Error>])>((nil, nil, []))

    /// A server with its dependencies passed in.
    public init(context: ServerContext, router: RequestRouter = .standard) throws {
        self.context = context
        self.router = router
        self.tls = try ServerTLS(context.configuration)
        self.budget = ConnectionBudget(limits: context.configuration.limits)
        self.lines = LineBudget(capacity: context.configuration.limits.partialLineBudget)
    }

    /// Bytes of unfinished request lines all connections hold now, out of `--partial-line-budget`.
    public var unfinishedLineBytes: Int { lines.reserved }

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

    /// Binds the listening socket; each accepted connection gets its handlers on its event loop.
    private func bind(configuration: ServerConfiguration) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.maxMessagesPerRead, value: 64)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // One read event brings at most four reads (64 KiB each at most) before the handler holds the next.
            .childChannelOption(.maxMessagesPerRead, value: 4)
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try self.accept(channel) }
            }
            .bind(host: configuration.host, port: configuration.port)
            .get()
    }

    public func run() async throws {
        let server: any Channel
        do {
            server = try await bind(configuration: context.configuration)
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
            state.channel = server
            defer { state.waiters = [] }
            return state.waiters
        }
        if let address = server.localAddress {
            waiters.forEach { $0.resume(returning: address) }
        }

        // After a flood of connections has gone, hand the memory it used back to the system.
        let memory = MemoryReturn(minimumArrivals: 64)
        let trimmer = server.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(5), delay: .seconds(5)) { [budget] _ in
            if memory.after(budget.activity) { budget.restartActivity() }
        }
        defer { trimmer.cancel() }
        let admin = await openAdminSocket()

        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                if let admin { group.addTask { await self.serveAdmin(admin) } }
                // However the listening socket closes, the admin socket closes with it.
                defer { admin?.channel.close(promise: nil) }
                try await withTaskCancellationHandler {
                    try await server.closeFuture.get()
                } onCancel: {
                    server.close(promise: nil)
                }
                // No new connections: the open ones answer what they are answering, then close.
                connections.drainAll()
                await connections.waitUntilClosed()
            }
        } onGracefulShutdown: {
            self.context.logger.info("shutting down: no new connections; finishing requests in flight")
            server.close(promise: nil)
            admin?.channel.close(promise: nil)
            self.connections.drainAll()
        }
        context.logger.info("server stopped")
    }

    /// Sets up an accepted connection on its event loop: TLS, then the budget's verdict, the login deadline, and the
    /// handler that serves it; what it holds is given back once it has closed and answered its last request.
    private func accept(_ channel: any Channel) throws {
        if let tls {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.current))
        }
        let remote = channel.remoteAddress?.ipAddress ?? "unknown"
        if let refusal = budget.admit(address: remote) {
            try channel.pipeline.syncOperations.addHandler(RefusalHandler(refusal))
            return
        }
        let state = ConnectionState(channel: channel)
        connections.add(state)
        ServerMetrics.connectionOpened()
        // The login deadline counts from the accept: requests do not extend it (a pairing device has its own).
        let timeout = TimeAmount.seconds(context.configuration.loginTimeoutSeconds)
        let pairingTimeout = TimeAmount.seconds(context.configuration.limits.pairingTimeoutSeconds)
        let timer = channel.eventLoop.scheduleRepeatedTask(
            initialDelay: timeout, delay: .nanoseconds(min(timeout.nanoseconds / 4, 1_000_000_000))
        ) { task in
            if state.closeIfLoginOverdue(loginTimeout: timeout, pairingTimeout: pairingTimeout) { task.cancel() }
        }
        let responder = RequestResponder(context: context, router: router, state: state, remoteAddress: remote, budget: budget)
        let handler = ConnectionHandler(responder: responder, lines: lines) { [connections, budget] in
            timer.cancel()
            connections.remove(state)
            budget.release(address: remote, seat: state.seat)
            ServerMetrics.connectionClosed()
        }
        try channel.pipeline.syncOperations.addHandler(handler)
    }
}
