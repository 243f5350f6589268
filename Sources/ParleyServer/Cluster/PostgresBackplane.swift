import Foundation
import Logging
import ParleyCrypto
import ParleyWire
import PostgresNIO
import Synchronization

/// What the nodes of a cluster share through their PostgreSQL database, besides the store itself:
/// events for connections on other nodes (`LISTEN/NOTIFY`), presence, and rate-limit buckets.
///
/// Every node listens on one channel. An event raised on a node is delivered to that node's own
/// connections at once and queued here; one task sends the queue as few `NOTIFY`s as it fits in, so
/// a burst of events costs a few round trips, not one each. Each node has a random id, announces
/// itself every `heartbeatSeconds`, and a node silent for `staleSeconds` is treated as gone (a
/// `kill -9` leaves its presence rows behind; they stop counting, then are swept).
public final class PostgresBackplane: Sendable {
    /// The channel every node listens on.
    static let channel = "parley_events"
    /// How often a node announces it is alive.
    static let heartbeatSeconds = 5
    /// After how long without a heartbeat a node's connections stop counting as online.
    static let staleSeconds: Int64 = 15
    /// Events waiting to be sent, at most; beyond it the oldest are dropped (they are hints).
    static let pendingLimit = 50_000

    /// This node's id in `cluster_nodes` and in the events it sends.
    public let nodeID: String
    let store: PostgresStore
    let url: PostgresURL
    let clock: any WallClock
    let logger: Logger
    let pending = Mutex<[ClusterEvent]>([])
    let wake: AsyncStream<Void>.Continuation
    let wakeups: AsyncStream<Void>
    let hub = Mutex<NotificationHub?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    /// The other nodes this node relays events to, with when it last knew each alive (server clock, ms): their
    /// fresh heartbeats, read at every heartbeat, and their hellos (docs/SCALING.md §2.1). With none, an event
    /// stays on this node: a lone node sends no `NOTIFY` (about 0.18 ms of the database's CPU a message otherwise).
    let peers = Mutex<[String: Int64]>([:])
    /// The nodes that answered this node's hello.
    let answered = Mutex<Set<String>>([])
    /// How long a node starting waits for the others to answer its hello before it serves anyway.
    static let helloWait: Duration = .seconds(2)

    /// A backplane for a node using `store`; `start()` it before serving.
    public init(store: PostgresStore, url: PostgresURL, clock: any WallClock, logger: Logger, nodeID: String? = nil) {
        self.nodeID = nodeID ?? UUID().uuidString.lowercased()
        self.store = store
        self.url = url
        self.clock = clock
        self.logger = logger
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Announces the node and starts listening; returns once `LISTEN` is in place and every other node alive
    /// answered its hello (or `helloWait` passed), so no event sent after this returns is missed: each node
    /// relays to this one before it answers.
    public func start() async throws {
        try await heartbeat()
        try await startTasks()
        let expected = Set(peers.withLock { $0.keys })
        await sendPeerNotice(.hello)
        let deadline = ContinuousClock.now + Self.helloWait
        while !expected.isSubset(of: answered.withLock({ $0 })), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let silent = expected.subtracting(answered.withLock { $0 })
        if !silent.isEmpty {
            // An older node, or one killed within the last seconds: older nodes relay everything anyway, and every
            // node finds this one in `cluster_nodes` at its next heartbeat.
            logger.notice("some cluster nodes did not answer this node's hello", metadata: ["nodes": "\(silent.sorted())"])
        }
    }

    /// Whether another node may hold connections an event is for.
    var hasPeers: Bool { peers.withLock { !$0.isEmpty } }

    /// Records `nodes` as alive now, and forgets those not heard of for twice the stale time.
    func notePeers(_ nodes: some Sequence<String>) {
        let now = clock.now()
        let me = nodeID
        peers.withLock { peers in
            for node in nodes where node != me { peers[node] = now }
            peers = peers.filter { now - $0.value <= 2 * Self.staleSeconds * 1000 }
        }
    }

    /// Starts listening, sending and beating; returns once `LISTEN` is in place.
    private func startTasks() async throws {
        let ready = ReadySignal()
        try await ready.wait {
            let listener = Task { await self.listen(ready: ready) }
            let publisher = Task { await self.publish() }
            let beater = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(Self.heartbeatSeconds))
                    guard !Task.isCancelled else { return }
                    do {
                        try await self.heartbeat()
                    } catch {
                        self.logger.warning("cluster heartbeat failed", metadata: ["error": "\(PostgresStore.reason(error))"])
                    }
                }
            }
            tasks.withLock { $0 = [listener, publisher, beater] }
        }
    }

    /// Connects the hub both ways: its events go out through this backplane, other nodes' events come in to it.
    public func attach(_ hub: NotificationHub) {
        self.hub.withLock { $0 = hub }
        hub.relay(to: self)
    }

    /// Stops listening and sending, and removes this node (and its presence) from the database.
    public func close() async {
        wake.finish()
        hub.withLock { $0 = nil }  // the hub holds this backplane too
        let running = tasks.withLock { tasks in defer { tasks = [] }; return tasks }
        running.forEach { $0.cancel() }
        for task in running { await task.value }
        let node = nodeID
        _ = try? await store.transaction("leave cluster") { connection, logger in
            try await connection.run("DELETE FROM cluster_presence WHERE node_id = \(node)", logger)
            try await connection.run("DELETE FROM cluster_nodes WHERE node_id = \(node)", logger)
        }
    }

    /// Records that this node is alive, sweeps nodes long gone and idle rate buckets, and reads which other
    /// nodes are alive (`peers`).
    func heartbeat() async throws {
        let now = clock.now()
        let node = nodeID
        let gone = now - 4 * Self.staleSeconds * 1000
        let idle = now - 600_000
        try await store.transaction("cluster heartbeat") { connection, logger in
            try await connection.run("""
                INSERT INTO cluster_nodes (node_id, heartbeat_at) VALUES (\(node), \(now))
                ON CONFLICT (node_id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at
                """, logger)
            try await connection.run(
                "DELETE FROM cluster_presence WHERE node_id IN (SELECT node_id FROM cluster_nodes WHERE heartbeat_at < \(gone))", logger)
            try await connection.run("DELETE FROM cluster_nodes WHERE heartbeat_at < \(gone)", logger)
            try await connection.run("DELETE FROM rate_buckets WHERE updated_at < \(idle)", logger)
        }
        let fresh = now - Self.staleSeconds * 1000
        let alive = try await store.read { connection, logger in
            try await connection.column(
                "SELECT node_id FROM cluster_nodes WHERE heartbeat_at >= \(fresh) AND node_id <> \(node)", logger, as: String.self)
        }
        notePeers(alive)
    }
}
