import NIOCore
import ParleyWire

/// Tells a connection over the budget why, in one line, and closes it without reading anything.
final class RefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let line: [UInt8]?

    init(_ refusal: ConnectionBudget.Refusal) {
        line = try? WireMessage.failure(requestID: nil, error: WireError(.unavailable, refusal.message)).encodedLine()
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        guard let line else {
            channel.close(promise: nil)
            return
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: line))).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
