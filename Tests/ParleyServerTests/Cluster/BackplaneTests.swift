import Foundation
import Logging
@testable import ParleyServer
import ParleyTestSupport
import ParleyWire
import PostgresNIO
import Synchronization
import Testing

/// The backplane's shared state on a real database: presence counts, stale nodes, and token leases.
@Suite("Cluster backplane state", .serialized)
struct BackplaneTests {
    func withBackplanes(_ body: (PostgresBackplane, PostgresBackplane, ManualServerClock) async throws -> Void) async throws {
        let url = try await PostgresCluster.newDatabase()
        let logger = Logger(label: "test")
        let store = try await PostgresStore.connect(url, logger: logger, maximumConnections: 4)
        let clock = ManualServerClock()
        let first = PostgresBackplane(store: store, url: url, clock: clock, logger: logger, nodeID: "node-1")
        let second = PostgresBackplane(store: store, url: url, clock: clock, logger: logger, nodeID: "node-2")
        try await first.start()
        try await second.start()
        do {
            try await body(first, second, clock)
        } catch {
            await second.close()
            await first.close()
            await store.close()
            throw error
        }
        await second.close()
        await first.close()
        await store.close()
        await PostgresCluster.dropDatabase(url)
    }

    @Test("an account is online while any node counts a connection for it, and offline when the last one leaves")
    func presenceCounts() async throws {
        try await withBackplanes { first, second, _ in
            let ann = Caller(accountID: 1, deviceID: 1)
            #expect(await first.arrived(ann, onlineHere: false) == false)
            #expect(await first.arrived(ann, onlineHere: true) == true)
            #expect(await second.arrived(Caller(accountID: 1, deviceID: 2), onlineHere: false) == true, "online on node 1")
            #expect(await second.online([1, 2]) == [1])
            await first.left(ann)
            #expect(await second.online([1]) == [1])
            await first.left(ann)
            #expect(await first.online([1]) == [1], "device 2 on node 2 is still connected")
            await second.left(Caller(accountID: 1, deviceID: 2))
            #expect(await first.online([1]).isEmpty)
            #expect(await first.online([]).isEmpty)
        }
    }

    @Test("a lone node sends no NOTIFY; a node started beside it is relayed to before its start returns, and forgotten once silent")
    func peersDecideRelaying() async throws {
        let url = try await PostgresCluster.newDatabase()
        let logger = Logger(label: "test")
        let store = try await PostgresStore.connect(url, logger: logger, maximumConnections: 4)
        let clock = ManualServerClock()
        // What goes over the channel, heard as a third party would.
        let heard = Heard()
        let listening = ReadySignal()
        let listener = Mutex<Task<Void, any Error>?>(nil)
        try await listening.wait {
            listener.withLock { $0 = Task { try await heard.listen(url, logger: logger, ready: listening) } }
        }
        func relayed(by node: PostgresBackplane, account: Int64) async throws -> Bool {
            node.relay(ClusterEvent(accountID: account, action: .disconnect))
            let deadline = ContinuousClock.now + .milliseconds(500)
            while ContinuousClock.now < deadline {
                if heard.payloads.withLock({ $0.contains { ClusterBatch.parse($0)?.events.first?.accountID == account } }) { return true }
                try await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        let first = PostgresBackplane(store: store, url: url, clock: clock, logger: logger, nodeID: "node-1")
        try await first.start()
        #expect(!first.hasPeers)
        #expect(try await !relayed(by: first, account: 1), "alone: nothing to tell anyone")
        let second = PostgresBackplane(store: store, url: url, clock: clock, logger: logger, nodeID: "node-2")
        try await second.start()
        // The first heard the hello and answered before the second's start returned.
        #expect(first.hasPeers && second.hasPeers)
        #expect(second.answered.withLock { $0 } == ["node-1"])
        #expect(heard.payloads.withLock { $0.contains(ClusterBatch.payload(node: "node-2", .hello)) })
        #expect(try await relayed(by: first, account: 2))
        #expect(try await relayed(by: second, account: 3))
        // The second stops beating (kill -9): after twice the stale time the first forgets it and relays no more.
        clock.advance(milliseconds: 2 * PostgresBackplane.staleSeconds * 1000 + 1)
        try await first.heartbeat()
        #expect(!first.hasPeers)
        #expect(try await !relayed(by: first, account: 4))

        listener.withLock { $0?.cancel() }
        await second.close()
        await first.close()
        await store.close()
        await PostgresCluster.dropDatabase(url)
    }

    @Test("a node that stops beating (kill -9) stops counting, and is swept with its presence")
    func staleNode() async throws {
        try await withBackplanes { first, second, clock in
            _ = await first.arrived(Caller(accountID: 7, deviceID: 1), onlineHere: false)
            #expect(await second.online([7]) == [7])
            // The clock moves past the stale limit and only node 2 beats.
            clock.advance(milliseconds: PostgresBackplane.staleSeconds * 1000 + 1)
            try await second.heartbeat()
            #expect(await second.online([7]).isEmpty)
            clock.advance(milliseconds: 4 * PostgresBackplane.staleSeconds * 1000)
            try await second.heartbeat()
            let rows = try await second.store.read { connection, logger in
                try await connection.scalar("SELECT count(*) FROM cluster_presence WHERE node_id = 'node-1'", logger, as: Int64.self)
            }
            #expect(rows == 0)
        }
    }

    @Test("token leases: never more than the bucket holds, refilled at the rate, capped at the burst")
    func tokenLeases() async throws {
        try await withBackplanes { first, second, clock in
            let now = clock.now()
            var granted: [Int] = []
            for (node, count, at) in [(first, 4, now), (second, 4, now), (first, 4, now), (second, 4, now), (second, 4, now + 400), (first, 100, now + 3_600_000)] {
                granted.append(try await node.take(subject: "account:1", count: count, rate: 5, burst: 10, now: at))
            }
            // 4 + 4 + 2 empty the burst of 10; 400 ms at 5/s refills 2; an hour later it is full again, not fuller.
            #expect(granted == [4, 4, 2, 0, 2, 10])
            let other = try await first.take(subject: "account:2", count: 1, rate: 5, burst: 10, now: now)
            #expect(other == 1, "another subject has its own bucket")
        }
    }
}

/// Every payload on the cluster channel, from a connection of its own.
final class Heard: Sendable {
    let payloads = Mutex<[String]>([])

    func listen(_ url: PostgresURL, logger: Logger, ready: ReadySignal) async throws {
        let connection = try await PostgresStore.openConnection(url, logger: logger)
        defer { Task { try? await connection.close() } }
        try await connection.listen(on: PostgresBackplane.channel) { notifications in
            ready.succeed()
            for try await notification in notifications { payloads.withLock { $0.append(notification.payload) } }
        }
    }
}
