import NIOCore
import NIOHTTP1
import ParleyTLS

/// Collects one HTTP response: its status and at most `limit` body bytes; more fails it (docs/MAIL.md §6.2).
final class WKDAnswer: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    struct Response {
        let status: Int
        let body: [UInt8]
    }

    enum Failure: Error {
        case tooLarge
        case ended
    }

    private let limit: Int
    private let request: HTTPRequestHead
    private let done: EventLoopPromise<Response>
    private var status = 0
    private var body: [UInt8] = []

    init(host: String, path: String, limit: Int, done: EventLoopPromise<Response>) {
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
        head.headers.add(name: "Host", value: host)
        head.headers.add(name: "User-Agent", value: "Parley")
        head.headers.add(name: "Accept", value: "application/octet-stream")
        head.headers.add(name: "Connection", value: "close")
        request = head
        self.limit = limit
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = Int(head.status.code)
        case .body(var buffer):
            guard body.count + buffer.readableBytes <= limit else {
                done.fail(Failure.tooLarge)
                context.channel.giveUp()   // and read nothing more of it (ReadGate)
                return
            }
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            done.succeed(Response(status: status, body: body))
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(Failure.ended)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.channel.giveUp()
    }
}
