import Foundation
@testable import ParleyClient
import ParleyLocation
import Testing

@Suite("Flows: following someone's location")
struct LocationFollowerTests {
    static func points(_ ids: [Int64]) -> [LocationPoint] {
        ids.map { LocationPoint(waypointID: $0, timestamp: $0, waypoint: nil, problem: "test") }
    }

    @Test("each waypoint is handed over once, whatever order or repetition the batches come in")
    func cursor() {
        var cursor = WaypointCursor(route: 1, lastShown: 5)
        #expect(cursor.take(Self.points([3, 4, 5]), route: 1).fresh.isEmpty)
        #expect(cursor.take(Self.points([5, 6, 7]), route: 1) == (Self.points([6, 7]), false))
        #expect(cursor.take(Self.points([7]), route: 1).fresh.isEmpty)
        #expect(cursor.take(Self.points([]), route: 1).fresh.isEmpty)
        // Another route is announced with its first points, and only then.
        #expect(cursor.take(Self.points([]), route: 2) == ([], false))
        #expect(cursor.take(Self.points([1, 2]), route: 2) == (Self.points([1, 2]), true))
        #expect(cursor.take(Self.points([3]), route: 2) == (Self.points([3]), false))
        #expect(cursor.take(Self.points([1]), route: 3) == (Self.points([1]), true))
        // Out of order within a batch: the newest counts, older ones later are not repeated.
        #expect(cursor.take(Self.points([9, 8]), route: 1).fresh == Self.points([9, 8]))
        #expect(cursor.take(Self.points([8, 9, Int64.max]), route: 1).fresh == Self.points([Int64.max]))
        #expect(cursor.take(Self.points([Int64.min, -1, 0]), route: 4) == ([], false))
    }

    @Test("the route so far, then new positions as they are posted; a stranger or a bad link is refused")
    func follows() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        _ = try await ann.location.share(with: "bob@example.org")
        try await eventually("bob has the key") { try await bob.following.keyEpochs(of: annID) == [1] }
        let here = Waypoint(latitude: 1, longitude: 2, timestamp: 1_000, accuracy: 5, altitude: nil)
        _ = try await ann.location.post([here])

        let follower = try await LocationFollower.start(following: "ann@example.org", route: nil, live: true, client: bob)
        #expect(follower.owner == annID && follower.name == "ann@example.org" && follower.first.waypoints == [here])
        try await Task.sleep(for: .milliseconds(100))   // the subscription is in place before the post
        let there = Waypoint(latitude: 3, longitude: 4, timestamp: 2_000, accuracy: 5, altitude: nil)
        _ = try await ann.location.post([there])
        var received: [Waypoint] = []
        await follower.follow { batch in
            received += batch.points.compactMap(\.waypoint)
            return received.count < 1
        }
        #expect(received == [there])

        let once = try await LocationFollower.start(following: "ann@example.org", route: nil, live: false, client: bob)
        await once.follow { _ in Issue.record("a follower that is not live handed something over"); return false }
        for target in ["carol@example.org", "parley://location?garbage", "PARLEY:", "\u{1B}[2J"] {
            await #expect(throws: ClientError.self) { _ = try await LocationFollower.start(following: target, route: nil, live: false, client: bob) }
        }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
