import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// `--metrics HOST:PORT`: Prometheus text format at `GET /metrics`, plain HTTP, nothing else.
///
/// Bind it to loopback or an operations network only: the figures are not secret, but they are nobody
/// else's business. Every other path answers 404, every other method 405.
public final class MetricsEndpoint: Service, Sendable {
    private let registry: PrometheusCollectorRegistry
    private let host: String
    private let port: Int
    private let logger: Logger
    private let bound = Mutex<(address: SocketAddress?, failure: (any Error)?, waiters: [CheckedContinuation<SocketAddress, any Error>])>((nil, nil, []))

    /// An endpoint serving `registry` on `host:port` (port 0 picks a free one).
    public init(registry: PrometheusCollectorRegistry, host: String, port: Int, logger: Logger) {
        self.registry = registry
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Makes Prometheus this process's swift-metrics backend (once per process) and an endpoint serving it.
    public static func bootstrapPrometheus(host: String, port: Int, logger: Logger) -> MetricsEndpoint {
        var factory = PrometheusMetricsFactory()
        // Writes per group commit: from one (a quiet server) to about a thousand (every connection at once).
        factory.valueHistogramBuckets["parley_group_commit_writes"] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000]
        MetricsSystem.bootstrap(factory)
        return MetricsEndpoint(registry: factory.registry, host: host, port: port, logger: logger)
    }

    /// The address once bound (throws if binding failed).
    public func boundAddress() async throws -> SocketAddress {
        try await withCheckedThrowingContinuation { continuation in
            bound.withLock { state in
                if let address = state.address { continuation.resume(returning: address) }
                else if let failure = state.failure { continuation.resume(throwing: failure) }
                else { state.waiters.append(continuation) }
            }
        }
    }

    public func run() async throws {
        let registry = self.registry
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.pipeline.configureHTTPServerPipeline().flatMap {
                        channel.pipeline.addHandler(MetricsHTTPHandler(registry: registry))
                    }
                }
                .bind(host: host, port: port).get()
        } catch {
            let waiters = bound.withLock { state in defer { state.waiters = [] }; state.failure = error; return state.waiters }
            waiters.forEach { $0.resume(throwing: error) }
            throw error
        }
        let address = channel.localAddress
        let waiters = bound.withLock { state in defer { state.waiters = [] }; state.address = address; return state.waiters }
        if let address { waiters.forEach { $0.resume(returning: address) } }
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
    }
}

/// Answers one HTTP/1.1 request at a time on a metrics connection.
private final class MetricsHTTPHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private let registry: PrometheusCollectorRegistry
    private var head: HTTPRequestHead?

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): self.head = head
        case .body: break  // a body is ignored (and never buffered)
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        var status = HTTPResponseStatus.ok
        var body: [UInt8] = []
        if head.method != .GET && head.method != .HEAD {
            status = .methodNotAllowed
            body = Array("only GET /metrics\n".utf8)
        } else if path != "/metrics" {
            status = .notFound
            body = Array("metrics are at /metrics\n".utf8)
        } else {
            ProcessMemory.record(in: registry)
            registry.emit(into: &body)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(body.count))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        if head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let keepAlive = head.isKeepAlive, channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            if !keepAlive { channel.close(promise: nil) }
        }
    }
}
