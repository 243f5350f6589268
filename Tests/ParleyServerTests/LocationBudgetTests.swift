import Foundation
import GRDB
@testable import ParleyServer
import Testing

/// What one person's location sharing may make the server keep (docs/API.md §11), on a default server.
@Suite("Location sharing: what one person may keep", .serialized)
struct LocationBudgetTests {
    @Test("a person's routes still kept hold at most 1,000,000 waypoints: past it a batch is refused in words, and deleting a route makes room")
    func waypointsPerAccount() async throws {
        let people = try await TwoPeople.start()
        let ann = people.annSocket
        let old = try #require(try await ann.call("start_route")["route_id"] as? Int)
        #expect(try await ann.call("post_waypoints", ["route_id": old, "waypoints": [["ts": 1, "data": "v2:x"]]])["stored"] as? Int == 1)
        let current = try #require(try await ann.call("start_route")["route_id"] as? Int)
        // Ten full routes would take 2,000 requests: the old route's count is raised to what they would hold.
        let store = try #require(people.server.opened.store as? SQLiteStore)
        try await store.pool.write { db in
            try db.execute(sql: "UPDATE location_routes SET waypoint_count = 999999 WHERE id = ?", arguments: [old])
        }
        let batch = (10..<12).map { ["ts": $0, "data": "v2:\($0)"] as [String: Any] }
        let refused = try await ann.call("post_waypoints", ["route_id": current, "waypoints": batch])
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage?.contains("1000000 waypoints") == true && refused.errorMessage?.contains("parley location delete-route") == true,
                "\(refused.errorMessage ?? "")")
        #expect(try await ann.call("get_route", ["route_id": current])["waypoint_count"] as? Int == 0, "nothing of the batch was stored")
        #expect(try await ann.call("post_waypoints", ["route_id": current, "waypoints": [batch[0]]])["stored"] as? Int == 1, "the last one fits")

        #expect(try await ann.call("delete_route", ["route_id": old]).ok)
        #expect(try await ann.call("post_waypoints", ["route_id": current, "waypoints": [batch[1]]])["stored"] as? Int == 1)
        // Bob's routes are his own.
        let bobs = try #require(try await people.bobSocket.call("start_route")["route_id"] as? Int)
        #expect(try await people.bobSocket.call("post_waypoints", ["route_id": bobs, "waypoints": batch])["stored"] as? Int == 2)
        try await people.server.stop()
    }
}
