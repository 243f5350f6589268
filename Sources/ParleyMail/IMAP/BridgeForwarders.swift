import NIOCore
import NIOSSL
import NIOTLS
import ParleyTLS

/// libetpan's side → the server: every byte libetpan writes goes out (over TLS).
final class ToServer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let server: Channel

    init(server: Channel) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        server.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// The server → libetpan's side, spending the byte budget; holds what arrives before libetpan's side is
/// attached (the greeting right after the TLS handshake). Also reports the end of the TLS handshake.
final class FromServer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let budget: ByteBudget
    private let canceller: StreamCanceller
    private let activity: ActivitySignal
    private let handshake: EventLoopPromise<Void>?
    private var handshakeDone: Bool
    private var client: Channel?
    private var held: [ByteBuffer] = []

    /// How long libetpan may go on reading what the server sent before it hung up.
    static let drainTime = TimeAmount.milliseconds(500)

    init(budget: ByteBudget, canceller: StreamCanceller, activity: ActivitySignal, handshake: EventLoopPromise<Void>?) {
        self.budget = budget
        self.canceller = canceller
        self.activity = activity
        self.handshake = handshake
        self.handshakeDone = handshake == nil
    }

    /// Starts forwarding to libetpan's side, first what was held.
    func attach(_ client: Channel) {
        self.client = client
        for buffer in held { client.writeAndFlush(buffer, promise: nil) }
        held = []
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard budget.spend(buffer.readableBytes) else {
            // Over budget: stop here, reading nothing more from the server (`ReadGate`); libetpan's next read
            // fails (see StreamCanceller).
            try? context.pipeline.syncOperations.handler(type: ReadGate.self).shutReads()
            context.close(promise: nil)
            canceller.cancel()
            return
        }
        if let client { client.writeAndFlush(buffer, promise: nil) } else { held.append(buffer) }
        activity.raise()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent, !handshakeDone {
            handshakeDone = true
            handshake?.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if !handshakeDone {
            handshakeDone = true
            handshake?.fail(error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !handshakeDone {
            handshakeDone = true
            handshake?.fail(MailboxError.connection("the server closed the connection during the TLS handshake"))
        }
        // libetpan's side stays open (an end of stream mid-literal makes libetpan spin); once it had a moment
        // to read what arrived, its reads fail instead.
        let canceller = canceller
        activity.raise()
        context.eventLoop.scheduleTask(in: Self.drainTime) { canceller.cancel() }
        context.fireChannelInactive()
    }
}
