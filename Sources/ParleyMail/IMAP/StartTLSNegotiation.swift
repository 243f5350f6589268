import Foundation
import NIOCore

/// The IMAP STARTTLS exchange, done before libetpan sees a byte (docs/MAIL.md §2): read the greeting, send
/// `P0 STARTTLS`, read up to the tagged answer. Succeeds with the greeting line when the answer is OK and
/// nothing follows it; any byte after the OK line is a response-injection attempt and fails the connection.
final class StartTLSNegotiation: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Longest line accepted during the exchange, and most bytes in all.
    static let maximumLine = 8 * 1024
    static let maximumTotal = 64 * 1024

    private let done: EventLoopPromise<[UInt8]>
    private var buffer: [UInt8] = []
    private var greeting: [UInt8]?
    private var total = 0
    private var finished = false

    init(done: EventLoopPromise<[UInt8]>) {
        self.done = done
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        total += bytes.readableBytes
        buffer += bytes.readBytes(length: bytes.readableBytes) ?? []
        guard total <= Self.maximumTotal else { return fail(context, "the server said too much before STARTTLS") }
        while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(buffer[...end])
            buffer.removeSubrange(...end)
            handle(line, context: context)
        }
        if buffer.count > Self.maximumLine { fail(context, "the server sent an overlong line before STARTTLS") }
    }

    private func handle(_ line: [UInt8], context: ChannelHandlerContext) {
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard greeting != nil else {
            guard text.hasPrefix("* OK") else { return fail(context, "the server's greeting is not an IMAP greeting") }
            greeting = line
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "P0 STARTTLS\r\n")), promise: nil)
            return
        }
        guard text.hasPrefix("P0 ") else { return }  // untagged lines (CAPABILITY and the like) are not needed
        guard text.uppercased().hasPrefix("P0 OK") else { return fail(context, "the server does not offer STARTTLS") }
        guard buffer.isEmpty else { return fail(context, "the server sent data after agreeing to STARTTLS (an injection attempt)") }
        finished = true
        done.succeed(greeting ?? [])
    }

    private func fail(_ context: ChannelHandlerContext, _ why: String) {
        guard !finished else { return }
        finished = true
        done.fail(MailboxError.tls(why))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !finished { finished = true; done.fail(MailboxError.connection("the server closed the connection before STARTTLS")) }
        context.fireChannelInactive()
    }
}
