import NIOCore

/// One SMTP reply: a code and its text lines.
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]
    var text: String { lines.joined(separator: " ") }
}

/// Frames the server's bytes into replies (`250-…` lines continue, `250 …` ends one) and hands each to
/// the oldest waiter. Lives on its channel's event loop only.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// Limits against a hostile or broken server: one line, and one reply's lines.
    static let maximumLine = 4096
    static let maximumLines = 100

    private var pending: [UInt8] = []
    private var lines: [String] = []
    private var ready: [Result<SMTPReply, SMTPError>] = []
    private var waiters: [EventLoopPromise<SMTPReply>] = []
    private var failure: SMTPError?

    /// The next reply, from the buffer or when it arrives. Call on the event loop.
    func nextReply(_ promise: EventLoopPromise<SMTPReply>) {
        if !ready.isEmpty { return promise.completeWith(ready.removeFirst().mapError { $0 as any Error }) }
        if let failure { return promise.fail(failure) }
        waiters.append(promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        pending += buffer.readBytes(length: buffer.readableBytes) ?? []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(pending[..<newline])
            pending.removeSubrange(...newline)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            take(String(decoding: line, as: UTF8.self), context: context)
        }
        if pending.count > Self.maximumLine { fail(.protocolViolation("a line longer than \(Self.maximumLine) bytes"), context: context) }
    }

    private func take(_ line: String, context: ChannelHandlerContext) {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)), (200...599).contains(code),
            bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-")
        else { return fail(.protocolViolation("a line that is not a reply"), context: context) }
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard lines.count <= Self.maximumLines else { return fail(.protocolViolation("a reply of too many lines"), context: context) }
        guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return }
        deliver(.success(SMTPReply(code: code, lines: lines)))
        lines = []
    }

    private func deliver(_ result: Result<SMTPReply, SMTPError>) {
        if waiters.isEmpty { ready.append(result) } else { waiters.removeFirst().completeWith(result.mapError { $0 as any Error }) }
    }

    private func fail(_ error: SMTPError, context: ChannelHandlerContext) {
        guard failure == nil else { return }
        failure = error
        waiters.forEach { $0.fail(error) }
        waiters = []
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if failure == nil { failure = .unreachable("the connection closed") }
        waiters.forEach { $0.fail(failure!) }
        waiters = []
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(.unreachable("\(error)"), context: context)
    }
}
