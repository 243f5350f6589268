import Foundation
import NIOCore
import NIOPosix
import ParleyWire

/// How `parley server admin` reaches the running server(s) after it changed the database (docs/OPERATIONS.md §8):
/// a SQLite server through its admin socket, the nodes of a PostgreSQL cluster through their event channel.
public enum RunningServers {
    /// Whether any server heard the events, and its connections then.
    public enum Reach: Sendable, Equatable {
        /// A server (or `nodes` cluster nodes) carried out the events; `open` connections (SQLite only),
        /// `signedIn` of them logged in.
        case reached(nodes: Int, open: Int?, signedIn: Int)
        /// No server is running on this database: there are no connections to reach.
        case notRunning
    }

    /// Hands `events` to whatever serves this store: the admin socket in `dataDirectory` for SQLite, the
    /// cluster's channel for PostgreSQL. An empty list only asks for the counts.
    public static func tell(_ events: [ClusterEvent], store: any Store, dataDirectory: URL) async throws -> Reach {
        if let postgres = store as? PostgresStore { return try await tell(events, postgres: postgres) }
        return try await tell(events, socket: dataDirectory.appendingPathComponent(AdminSocket.fileName).path)
    }

    /// The events of disabling an account: its devices hear `account_disabled`, then its connections close.
    public static func events(disabling accountID: Int64) -> [ClusterEvent] {
        [
            ClusterEvent(accountID: accountID, action: .notify(.accountDisabled(.init(accountID: accountID)))),
            ClusterEvent(accountID: accountID, action: .disconnect),
        ]
    }

    /// The events of removing a device: its connections close, the account's other devices hear `device_removed`.
    public static func events(removingDevice deviceID: UInt32, of accountID: Int64) -> [ClusterEvent] {
        [
            ClusterEvent(accountID: accountID, deviceID: deviceID, action: .disconnect),
            ClusterEvent(accountID: accountID, action: .notify(.deviceRemoved(.init(deviceID: deviceID)))),
        ]
    }

    /// The events of an account's deletion (its contacts told, its connections closed).
    public static func events(deleting deleted: DeletedAccount) -> [ClusterEvent] { AccountDeletion.events(for: deleted) }

    static func tell(_ events: [ClusterEvent], postgres: PostgresStore) async throws -> Reach {
        let (payloads, _) = ClusterBatch.payloads(node: "admin-\(UUID().uuidString.prefix(8))", events: events)
        let fresh = Int64(Date().timeIntervalSince1970 * 1000) - PostgresBackplane.staleSeconds * 1000
        return try await postgres.read { db, log in
            for payload in payloads {
                try await db.run("SELECT pg_notify(\(PostgresBackplane.channel), \(payload.text))", log)
            }
            let nodes = try await db.scalar("SELECT COUNT(*) FROM cluster_nodes WHERE heartbeat_at > \(fresh)", log, as: Int64.self) ?? 0
            let signedIn = try await db.scalar(
                """
                SELECT COALESCE(SUM(p.connections), 0)::BIGINT FROM cluster_presence p
                JOIN cluster_nodes n ON n.node_id = p.node_id WHERE n.heartbeat_at > \(fresh)
                """, log, as: Int64.self) ?? 0
            return nodes == 0 ? .notRunning : .reached(nodes: Int(nodes), open: nil, signedIn: Int(signedIn))
        }
    }

    static func tell(_ events: [ClusterEvent], socket path: String) async throws -> Reach {
        guard FileManager.default.fileExists(atPath: path) else { return .notRunning }
        // As many requests as the events need, each at most a cluster payload long; an empty one asks for counts.
        var payloads = ClusterBatch.payloads(node: "admin", events: events).payloads.map(\.text)
        if payloads.isEmpty { payloads = [try ClusterBatch(node: "admin", events: []).payload()] }
        var reach = Reach.notRunning
        for payload in payloads {
            reach = try await send(payload, socket: path)
            if reach == .notRunning { break }
        }
        return reach
    }

    static func send(_ batch: String, socket path: String) async throws -> Reach {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await UnixSocketPath.withShortPath(path) { short in
                try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(5))
                    .connect(unixDomainSocketPath: short) { channel in
                        channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
                    }
            }
        } catch {
            // A file no server listens on: left by a server that stopped without removing it.
            return .notRunning
        }
        let answer = try await channel.executeThenClose { inbound, outbound -> [UInt8] in
            try await outbound.write(ByteBuffer(string: batch + "\n"))
            var line: [UInt8] = []
            for try await buffer in inbound {
                line += buffer.readableBytesView
                if line.contains(0x0A) || line.count > 1_000 { break }
            }
            return line
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer)) as? [String: Any], object["ok"] as? Bool == true,
            let open = object["connections"] as? Int, let signedIn = object["signed_in"] as? Int
        else { throw RunningServersError.unreadable }
        return .reached(nodes: 1, open: open, signedIn: signedIn)
    }
}

/// Why the running server could not be told.
public enum RunningServersError: Error, CustomStringConvertible {
    case unreadable

    public var description: String {
        switch self {
        case .unreadable: "the running server's admin socket gave an answer this parley cannot read (is it a different version?)"
        }
    }
}
