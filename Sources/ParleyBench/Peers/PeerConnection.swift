import NIOCore
import NIOPosix
import ParleyClient
import ParleyPeerDialects

/// One connection to a peer server (Prosody, Mosquitto, NATS), speaking its dialect on the connection's event
/// loop, as `BenchConnection` does for Parley: a send, its acknowledgement and a delivery cost no hop to Swift's pool.
final class PeerConnection: Sendable {
    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Where the others send this connection's messages.
    let address: String
    private let channel: any Channel
    private let handler: NIOLoopBound<PeerHandler>

    private init(address: String, channel: any Channel, handler: NIOLoopBound<PeerHandler>) {
        self.address = address
        self.channel = channel
        self.handler = handler
    }

    /// Connects, sets the session up and returns once the server is ready to deliver to it (10 s at most).
    static func connect(host: String, port: Int, dialect: some PeerDialect, recorder: LatencyRecorder) async throws -> PeerConnection {
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: BenchConnection.group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connect(host: host, port: port).get()
        } catch {
            throw Failure(description: "cannot connect to \(host):\(port): \(ConnectFailure.describe(error))")
        }
        let (handler, ready) = try await channel.eventLoop.submit {
            let handler = PeerHandler(dialect: dialect, recorder: recorder, ready: channel.eventLoop.makePromise(of: String.self))
            try channel.pipeline.syncOperations.addHandler(handler)
            return (NIOLoopBound(handler, eventLoop: channel.eventLoop), handler.ready.futureResult)
        }.get()
        let timeout = channel.eventLoop.scheduleTask(in: .seconds(10)) {
            handler.value.ready.fail(Failure(description: "the server did not set the session up in 10 s"))
        }
        defer { timeout.cancel() }
        do {
            return PeerConnection(address: try await ready.get(), channel: channel, handler: handler)
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// Sends a message of `size` bytes to `address` every `interval` from `first` until `end`, on schedule whatever
    /// the server does (an open loop). Message ids are `base` + 1, 2, …
    func sendPeriodically(first: NIODeadline, interval: TimeAmount, end: NIODeadline, to address: String, size: Int, base: Int) {
        let handler = handler
        channel.eventLoop.every(from: first, interval: interval, while: { $0 < end }) { sequence in
            handler.value.publish(id: base + sequence, size: size, to: address)
        }
    }

    func close() {
        channel.close(promise: nil)
    }
}

/// Runs a dialect on the event loop: writes what it says, records what the server's bytes meant.
final class PeerHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let ready: EventLoopPromise<String>
    private var dialect: any PeerDialect
    private let recorder: LatencyRecorder
    private var context: ChannelHandlerContext?
    /// When each message the server has not acknowledged yet was sent.
    private var sentAt: [Int: UInt64] = [:]

    init(dialect: some PeerDialect, recorder: LatencyRecorder, ready: EventLoopPromise<String>) {
        self.dialect = dialect
        self.recorder = recorder
        self.ready = ready
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        write(dialect.opening())
    }

    func publish(id: Int, size: Int, to address: String) {
        guard let context, context.channel.isActive else { return }
        let now = LatencyRecorder.now()
        recorder.sending()
        write(dialect.publish(id: id, size: size, to: address))
        if dialect.acknowledges {
            sentAt[id] = now
        } else {
            recorder.acknowledged(id, sentAt: now, recipients: 1)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = Array(buffer: unwrapInboundIn(data))
        do {
            for event in try dialect.read(bytes) {
                switch event {
                case .ready(let address): ready.succeed(address)
                case .delivered(let id): recorder.notified(id)
                case .acknowledged(let id):
                    if let at = sentAt.removeValue(forKey: id) { recorder.acknowledged(id, sentAt: at, recipients: 1) }
                case .refused(let id, let reason):
                    if sentAt.removeValue(forKey: id) != nil { recorder.failed(reason) }
                case .answer(let bytes): write(bytes)
                }
            }
        } catch {
            ready.fail(error)
            print("peer connection closed: \(error)")
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        ready.fail(PeerConnection.Failure(description: "the server closed the connection"))
        for _ in sentAt { recorder.failed("connection") }
        sentAt = [:]
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        ready.fail(error)
        context.close(promise: nil)
    }

    private func write(_ bytes: [UInt8]) {
        guard let context else { return }
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: bytes)), promise: nil)
    }
}
