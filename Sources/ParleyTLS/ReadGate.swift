import NIOCore

/// The first handler on a connection to a server (nearest the socket): once shut, no more reads reach the socket.
///
/// Closing a TLS connection starts a clean shutdown that waits up to 5 s for the server's close_notify, reading
/// all the while; a server flooding the connection after the client gave up on it would have those 5 s at full
/// speed (hundreds of MiB on a fast link, measured in HostileIMAPTests and HostileServerTests). Shut first, the
/// flood stops at the sockets' buffers, and the connection closes when the shutdown times out. The chat client and
/// `parley mail` both put one first in their pipelines.
public final class ReadGate: ChannelOutboundHandler {
    public typealias OutboundIn = NIOAny
    private var shut = false

    public init() {}

    /// Stops every later read (call it on the channel's event loop).
    public func shutReads() { shut = true }

    public func read(context: ChannelHandlerContext) {
        guard !shut else { return }
        context.read()
    }
}

extension Channel {
    /// Gives up on the server: shuts the channel's `ReadGate` (if it has one) and closes, so nothing more is read
    /// while TLS shuts down. For a server the client stopped trusting (over a budget, too slow, broken); a normal
    /// close still reads the server's close_notify, which a shut gate would keep out for the whole 5 s.
    public func giveUp() {
        eventLoop.execute {
            try? self.pipeline.syncOperations.handler(type: ReadGate.self).shutReads()
            self.close(promise: nil)
        }
    }
}
