import NIOCore

/// The first handler on the server's connection (nearest the socket): once shut, no more reads reach the socket.
///
/// Closing a TLS connection starts a clean shutdown that waits up to 5 s for the server's close_notify, reading
/// all the while; a server flooding the connection after its byte budget ran out would have those 5 s at full
/// speed (hundreds of MiB on a fast link, measured in HostileIMAPTests). Shut first, the flood stops at the
/// sockets' buffers, and the connection closes when the shutdown times out.
final class ReadGate: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny
    private var shut = false

    /// Stops every later read (on the channel's event loop).
    func shutReads() { shut = true }

    func read(context: ChannelHandlerContext) {
        guard !shut else { return }
        context.read()
    }
}
