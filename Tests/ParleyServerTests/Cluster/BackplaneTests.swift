import Foundation
import Logging
@testable import ParleyServer
import ParleyTestSupport
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
