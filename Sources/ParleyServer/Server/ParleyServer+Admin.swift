import Foundation
import NIOCore

extension ParleyServer {
    /// The admin socket's path for a SQLite server; nil for PostgreSQL (its nodes hear admin events on the backplane).
    var adminSocketPath: String? {
        context.configuration.databaseURL == nil
            ? context.configuration.dataDirectory.appendingPathComponent(AdminSocket.fileName).path : nil
    }

    /// Binds the admin socket, or logs why not: the server runs without it (admin commands still change the
    /// database, but cannot close this server's connections).
    func openAdminSocket() async -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>? {
        guard let path = adminSocketPath else { return nil }
        do {
            return try await AdminSocket.bind(path: path)
        } catch {
            context.logger.warning("no admin socket; 'parley server admin' cannot reach running connections", metadata: ["path": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    /// Serves admin clients until the socket closes, then removes its file.
    func serveAdmin(_ socket: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) async {
        let hub = context.notifications
        let logger = context.logger
        let counts: @Sendable () -> (open: Int, signedIn: Int) = { [self] in
            connections.counts
        }
        // Each client apart, with a deadline: one that connects and says nothing holds up no other.
        try? await withThrowingDiscardingTaskGroup { group in
            try await socket.executeThenClose { inbound in
                for try await child in inbound {
                    let deadline = child.channel.eventLoop.scheduleTask(in: .seconds(10)) { child.channel.close(promise: nil) }
                    group.addTask {
                        await AdminSocket.serve(child, hub: hub, counts: counts, logger: logger)
                        deadline.cancel()
                    }
                }
            }
            // The socket closed (shutdown): a client still being read from does not hold the server up.
            group.cancelAll()
        }
        if let path = adminSocketPath { unlink(path) }
    }
}
