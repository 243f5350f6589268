import NIOCore
import ParleyTLS
import ParleyWire

/// Splits the server's bytes into lines and hands each parsed message on; reports the close.
///
/// Once the client gives up on a server (a line over the limit, a notification it cannot keep up with, a TLS
/// error) it reads nothing more: the `ReadGate` before TLS is shut, so the clean TLS shutdown that follows the close
/// does not keep taking in a flooding server's bytes, and no line that was already read is acted on.
final class WireClientHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    /// Acts on one message, given with the length of its line; false means the client cannot keep up, and the
    /// connection closes.
    typealias MessageSink = @Sendable (_ message: WireMessage, _ lineBytes: Int) -> Bool

    /// The most JSON values one server line may hold (`JSONParser`): far above the largest answer (a page of 100
    /// messages is about 1,000 values, 10,000 conversations about 200,000), far below a gigabyte of parsed values.
    static let maximumValuesPerLine = 1 << 20

    private var framer: LineFramer
    private let gate: ReadGate
    private let onMessage: MessageSink
    private let onClose: @Sendable () -> Void
    private let diagnosis: ConnectionDiagnosis?
    private var sawBytes = false
    private var stopped = false

    init(maximumLineLength: Int, gate: ReadGate, diagnosis: ConnectionDiagnosis? = nil,
         onMessage: @escaping MessageSink, onClose: @escaping @Sendable () -> Void) {
        framer = LineFramer(maximumLineLength: maximumLineLength)
        self.gate = gate
        self.diagnosis = diagnosis
        self.onMessage = onMessage
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !stopped else { return }
        let buffer = unwrapInboundIn(data)
        if !sawBytes, let first = buffer.readableBytesView.first {
            sawBytes = true
            diagnosis?.sawFirstBytes(first, buffer.readableBytesView.dropFirst().first)
            if diagnosis?.explanation != nil { return stop(context) }
        }
        for event in framer.feed(buffer.readableBytesView) {
            switch event {
            case .line(let line):
                // A line we cannot read is the server's bug; skipping it keeps the connection useful,
                // and any request it answered times out instead of hanging.
                guard let message = try? WireMessage.parse(line: line, maximumValues: Self.maximumValuesPerLine) else { continue }
                if !onMessage(message, line.count) { return stop(context) }
            case .lineTooLong:
                return stop(context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        onClose()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        diagnosis?.sawError(error)
        stop(context)
    }

    /// Reads nothing more from this server, acts on nothing more it sent, and closes.
    private func stop(_ context: ChannelHandlerContext) {
        guard !stopped else { return }
        stopped = true
        gate.shutReads()
        context.close(promise: nil)
    }
}
