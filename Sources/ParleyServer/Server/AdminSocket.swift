import Foundation
import Logging
import NIOCore
import NIOPosix
import ParleyWire

/// The running SQLite server's ear for `parley server admin` (docs/OPERATIONS.md §8): a Unix socket in the
/// data directory, owner-only (0600, in a 0700 directory), never on the network.
///
/// The admin commands write to the database themselves; this socket only lets them reach the connections
/// of the running server. One request line, `{"v":1,"n":"admin","e":[EVENT…]}` (the cluster's event
/// batch, docs/SCALING.md §2), gets one answer line, `{"ok":true,"connections":N,"signed_in":M}`, after the
/// events (notifications, disconnects) are carried out. A PostgreSQL cluster hears the same events on its
/// backplane channel instead, so there is no socket.
enum AdminSocket {
    /// The socket's file name in the data directory.
    static let fileName = "admin.sock"
    /// The longest request line read.
    static let maximumLine = ClusterBatch.maximumBytes + 1_000

    /// Binds the socket (replacing a stale file) and serves it until the channel closes.
    static func bind(path: String) async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
        let channel = try await UnixSocketPath.withShortPath(path) { short in
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(unixDomainSocketPath: short, cleanupExistingSocketFile: true) { child in
                    child.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child) }
                }
        }
        guard chmod(path, 0o600) == 0 else {
            channel.channel.close(promise: nil)
            throw AdminSocketError.permissions(path)
        }
        return channel
    }

    /// Answers one client: reads its line, carries out its events, writes the counts.
    static func serve(
        _ child: NIOAsyncChannel<ByteBuffer, ByteBuffer>, hub: NotificationHub, counts: @Sendable () -> (open: Int, signedIn: Int),
        logger: Logger
    ) async {
        try? await child.executeThenClose { inbound, outbound in
            var line: [UInt8] = []
            for try await buffer in inbound {
                line += buffer.readableBytesView
                if line.contains(0x0A) || line.count > maximumLine { break }
            }
            guard let end = line.firstIndex(of: 0x0A), end <= maximumLine,
                let batch = ClusterBatch.parse(String(decoding: line[..<end], as: UTF8.self))
            else {
                try await outbound.write(ByteBuffer(string: #"{"ok":false,"error":"not an admin request"}"# + "\n"))
                return
            }
            batch.events.forEach(hub.share)
            if !batch.events.isEmpty { logger.info("administration", metadata: ["events": "\(batch.events.count)"]) }
            let (open, signedIn) = counts()
            try await outbound.write(ByteBuffer(string: #"{"connections":\#(open),"ok":true,"signed_in":\#(signedIn)}"# + "\n"))
        }
    }
}

/// Why the admin socket could not be set up.
enum AdminSocketError: Error, CustomStringConvertible {
    case permissions(String)

    var description: String {
        switch self {
        case .permissions(let path): "cannot make \(path) owner-only"
        }
    }
}
