import NIOCore
import ParleyWire

/// Splits the server's bytes into lines and hands each parsed message on; reports the close.
final class WireClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    private var framer: LineFramer
    private let onMessage: @Sendable (WireMessage) -> Void
    private let onClose: @Sendable () -> Void
    private let diagnosis: ConnectionDiagnosis?
    private var sawBytes = false

    init(maximumLineLength: Int, diagnosis: ConnectionDiagnosis? = nil,
         onMessage: @escaping @Sendable (WireMessage) -> Void, onClose: @escaping @Sendable () -> Void) {
        framer = LineFramer(maximumLineLength: maximumLineLength)
        self.diagnosis = diagnosis
        self.onMessage = onMessage
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if !sawBytes, let first = buffer.readableBytesView.first {
            sawBytes = true
            diagnosis?.sawFirstBytes(first, buffer.readableBytesView.dropFirst().first)
            if diagnosis?.explanation != nil {
                context.close(promise: nil)
                return
            }
        }
        for event in framer.feed(buffer.readableBytesView) {
            switch event {
            case .line(let line):
                // A line we cannot read is the server's bug; skipping it keeps the connection useful,
                // and any request it answered times out instead of hanging.
                if let message = try? WireMessage.parse(line: line) { onMessage(message) }
            case .lineTooLong:
                context.close(promise: nil)
                return
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        diagnosis?.sawError(error)
        context.close(promise: nil)
    }
}
