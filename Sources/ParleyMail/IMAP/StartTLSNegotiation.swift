import Foundation
import NIOCore

/// The STARTTLS exchange, done before libetpan sees a byte (docs/MAIL.md §2). IMAP: read the greeting, send
/// `P0 STARTTLS`, read up to the tagged answer. SMTP: read the (multi-line) 220 greeting, `EHLO`, `STARTTLS`,
/// expect 220. Succeeds with the greeting when the answer is yes and nothing follows it; any byte after that
/// answer is a response-injection attempt and fails the connection.
final class StartTLSNegotiation: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Longest line accepted during the exchange, and most bytes in all.
    static let maximumLine = 8 * 1024
    static let maximumTotal = 64 * 1024

    /// Which protocol's exchange.
    enum Dialect: Sendable { case imap, smtp }

    private enum Step { case greeting, ehlo, answer }

    private let dialect: Dialect
    private let done: EventLoopPromise<[UInt8]>
    private var buffer: [UInt8] = []
    private var greeting: [UInt8] = []
    private var step = Step.greeting
    private var total = 0
    private var finished = false

    init(_ dialect: Dialect, done: EventLoopPromise<[UInt8]>) {
        self.dialect = dialect
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
        switch (dialect, step) {
        case (.imap, .greeting):
            guard text.hasPrefix("* OK") else { return fail(context, "the server's greeting is not an IMAP greeting") }
            greeting = line
            step = .answer
            send("P0 STARTTLS\r\n", context)
        case (.imap, _):
            guard text.hasPrefix("P0 ") else { return }  // untagged lines (CAPABILITY and the like) are not needed
            guard text.uppercased().hasPrefix("P0 OK") else { return fail(context, "the server does not offer STARTTLS") }
            succeed(context)
        case (.smtp, .greeting):
            guard text.hasPrefix("220") else { return fail(context, "the server's greeting is not an SMTP greeting") }
            greeting += line
            guard Self.isLast(text) else { return }
            step = .ehlo
            send("EHLO parley.invalid\r\n", context)
        case (.smtp, .ehlo):
            guard text.hasPrefix("250") else { return fail(context, "the server refused EHLO") }
            offersStartTLS = offersStartTLS || text.dropFirst(4).uppercased().hasPrefix("STARTTLS")
            guard Self.isLast(text) else { return }
            guard offersStartTLS else { return fail(context, "the server does not offer STARTTLS") }
            step = .answer
            send("STARTTLS\r\n", context)
        case (.smtp, .answer):
            guard text.hasPrefix("220") else { return fail(context, "the server refused STARTTLS") }
            succeed(context)
        }
    }

    private var offersStartTLS = false

    /// An SMTP reply's last line has a space after its code; the others a hyphen.
    private static func isLast(_ text: String) -> Bool {
        text.count <= 3 || text[text.index(text.startIndex, offsetBy: 3)] == " "
    }

    private func send(_ text: String, _ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)), promise: nil)
    }

    private func succeed(_ context: ChannelHandlerContext) {
        guard buffer.isEmpty else { return fail(context, "the server sent data after agreeing to STARTTLS (an injection attempt)") }
        guard !finished else { return }
        finished = true
        done.succeed(greeting)
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
