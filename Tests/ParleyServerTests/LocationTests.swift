import Foundation
import ParleyLocation
import Testing

@Suite("Location sharing", .serialized)
struct LocationTests {
    /// A real v2 waypoint string sealed for `owner`'s `route`.
    func sealed(_ latitude: Double, ts: Int, owner: Int, route: Int, key: LocationKey) throws -> [String: Any] {
        let waypoint = Waypoint(latitude: latitude, longitude: 23.76, timestamp: Int64(ts), accuracy: 5)
        return ["ts": ts, "data": try WaypointV2.seal(waypoint, owner: UInt64(owner), routeID: UInt64(route), key: key)]
    }

    /// Opens every waypoint of a `get_route` response with `key`.
    func open(_ response: [String: Any], owner: Int, key: LocationKey) throws -> [Double] {
        let route = try #require(response["route_id"] as? Int)
        let waypoints = try #require(response["waypoints"] as? [[String: Any]])
        return try waypoints.map { item in
            let binding = WaypointV2.Binding(owner: UInt64(owner), routeID: UInt64(route), timestamp: Int64(item["ts"] as! Int))
            return try WaypointV2.open(item["data"] as! String, binding: binding, key: key).latitude
        }
    }

    func login(_ email: String, on server: TestServer) async throws -> (LineSocket, Int) {
        let account = TestAccount(email)
        let socket = try server.connect()
        try await server.createAccount(account, on: socket)
        let login = try await server.login(account, on: socket)
        return (socket, login["account_id"] as! Int)
    }

    @Test("an allowed follower reads the latest route, is notified of new waypoints, and pages through them")
    func followAndPage() async throws {
        let people = try await TwoPeople.start()
        let key = LocationKey.random()
        let ann = people.annSocket, bob = people.bobSocket
        #expect(try await ann.call("allow_follower", ["email": people.bob.email])["added"] as? Bool == true)
        #expect(try await ann.call("allow_follower", ["email": people.bob.email])["added"] as? Bool == false)
        let route = try #require(try await ann.call("start_route")["route_id"] as? Int)

        let batch = try (0..<3).map { try sealed(61.0 + Double($0) / 100, ts: 1_800_000_000_000 + $0 * 1000, owner: people.annID, route: route, key: key) }
        let posted = try await ann.call("post_waypoints", ["route_id": route, "waypoints": batch])
        #expect(posted["stored"] as? Int == 3 && posted["duplicates"] as? Int == 0)
        let note = try await bob.nextNotification(named: "new_waypoints")
        #expect(note["owner_id"] as? Int == people.annID && note["route_id"] as? Int == route && note["count"] as? Int == 3)

        // A retried batch (lost acknowledgement) stores nothing twice and notifies nobody.
        let retried = try await ann.call("post_waypoints", ["route_id": route, "waypoints": batch])
        #expect(retried["stored"] as? Int == 0 && retried["duplicates"] as? Int == 3)

        let first = try await bob.call("get_route", ["owner_id": people.annID, "limit": 2])
        #expect(first["route_id"] as? Int == route && first["active"] as? Bool == true && first["has_more"] as? Bool == true)
        #expect(try open(first, owner: people.annID, key: key) == [61.0, 61.01])
        let cursor = try #require((first["waypoints"] as? [[String: Any]])?.last?["waypoint_id"] as? Int)
        let second = try await bob.call("get_route", ["owner_id": people.annID, "route_id": route, "after_waypoint_id": cursor])
        #expect(try open(second, owner: people.annID, key: key) == [61.02])
        #expect(second["has_more"] as? Bool == false && second["waypoint_count"] as? Int == 3)

        // The server cannot move a waypoint to another route: the binding no longer matches.
        let next = try #require(try await ann.call("start_route")["route_id"] as? Int)
        let routes = try await bob.call("list_routes", ["owner_id": people.annID])
        let listed = try #require(routes["routes"] as? [[String: Any]])
        #expect(listed.map { $0["route_id"] as? Int } == [next, route])
        #expect(listed.map { $0["active"] as? Bool } == [true, false])
        let moved: [String: Any] = ["route_id": next, "waypoints": (first["waypoints"] as! [[String: Any]]).map { ["ts": $0["ts"]!, "data": $0["data"]!] }]
        _ = try await ann.call("post_waypoints", moved)
        let latest = try await bob.call("get_route", ["owner_id": people.annID])
        #expect(latest["route_id"] as? Int == next)
        #expect(throws: LocationError.couldNotDecrypt) { try open(latest, owner: people.annID, key: key) }
        try await people.server.stop()
    }

    @Test("a person who blocked someone is not reached by their waypoints, nor shown them among those followed")
    func aBlockerIsNotReached() async throws {
        let people = try await TwoPeople.start()
        let ann = people.annSocket, bob = people.bobSocket
        // Anyone may make anyone a follower (found by an outside probe: a stranger pushed notifications and data on
        // someone who had blocked them).
        #expect(try await bob.call("block_account", ["email": people.ann.email]).ok)
        #expect(try await ann.call("allow_follower", ["email": people.bob.email])["added"] as? Bool == true)
        let route = try #require(try await ann.call("start_route")["route_id"] as? Int)
        let key = LocationKey.random()
        let posted = try await ann.call("post_waypoints", ["route_id": route, "waypoints": [try sealed(61.0, ts: 1_800_000_000_000, owner: people.annID, route: route, key: key)]])
        #expect(posted["stored"] as? Int == 1)
        #expect(try await bob.call("list_following")["owner_ids"] as? [Int] == [])
        // A ping's answer comes after any notification sent before it: none was.
        #expect(try await bob.call("ping").ok)
        #expect(!bob.notifications.contains { $0["event"] as? String == "new_waypoints" })
        // Unblocked, the relation stands and the next waypoints reach him.
        #expect(try await bob.call("unblock_account", ["email": people.ann.email]).ok)
        #expect(try await bob.call("list_following")["owner_ids"] as? [Int] == [people.annID])
        _ = try await ann.call("post_waypoints", ["route_id": route, "waypoints": [try sealed(61.1, ts: 1_800_000_001_000, owner: people.annID, route: route, key: key)]])
        #expect(try await bob.nextNotification(named: "new_waypoints")["owner_id"] as? Int == people.annID)
        try await people.server.stop()
    }

    @Test("revoking a follower stops their reads, and after the key is rotated they cannot decrypt new waypoints")
    func revocation() async throws {
        let people = try await TwoPeople.start()
        let (carol, carolID) = try await login("carol@example.org", on: people.server)
        let ann = people.annSocket
        var key = LocationKey.random()
        _ = try await ann.call("allow_follower", ["email": people.bob.email])
        _ = try await ann.call("allow_follower", ["account_id": carolID])
        let route = try #require(try await ann.call("start_route")["route_id"] as? Int)
        _ = try await ann.call("post_waypoints", ["route_id": route, "waypoints": [try sealed(60.1, ts: 1000, owner: people.annID, route: route, key: key)]])
        let before = try await carol.call("get_route", ["owner_id": people.annID])
        #expect(try open(before, owner: people.annID, key: key) == [60.1])
        let oldKey = key

        // Ann revokes Carol and rotates the key; Bob gets the new one (over E2E chat in the client).
        #expect(try await ann.call("revoke_follower", ["account_id": carolID])["removed"] as? Bool == true)
        key = LocationKey.random()
        _ = try await ann.call("post_waypoints", ["route_id": route, "waypoints": [try sealed(60.2, ts: 2000, owner: people.annID, route: route, key: key)]])
        let followers = try #require(try await ann.call("list_followers")["followers"] as? [[String: Any]])
        #expect(followers.map { $0["account_id"] as? Int } == [people.bobID])

        #expect(try await carol.call("get_route", ["owner_id": people.annID]).errorCode == "not_found")
        #expect(try await carol.call("list_routes", ["owner_id": people.annID]).errorCode == "not_found")
        let bobView = try await people.bobSocket.call("get_route", ["owner_id": people.annID, "after_waypoint_id": 0])
        let items = try #require(bobView["waypoints"] as? [[String: Any]])
        let newest = try #require(items.last)
        // Bob reads the new waypoint with the new key…
        let binding = WaypointV2.Binding(owner: UInt64(people.annID), routeID: UInt64(route), timestamp: 2000)
        #expect(try WaypointV2.open(newest["data"] as! String, binding: binding, key: key).latitude == 60.2)
        // …and even if Carol obtained that ciphertext elsewhere, her old key opens nothing posted after revocation.
        #expect(throws: LocationError.couldNotDecrypt) { try WaypointV2.open(newest["data"] as! String, binding: binding, key: oldKey) }
        try await people.server.stop()
    }

    @Test("non-followers and strangers get not_found for everything, exactly as for routes that never existed")
    func strangers() async throws {
        let people = try await TwoPeople.start()
        let ann = people.annSocket, bob = people.bobSocket
        let route = try #require(try await ann.call("start_route")["route_id"] as? Int)
        _ = try await ann.call("post_waypoints", ["route_id": route, "waypoints": [["ts": 1, "data": "v2:AAAA"]]])
        for (method, fields) in [
            ("get_route", ["owner_id": people.annID] as [String: Any]), ("get_route", ["owner_id": people.annID, "route_id": route]),
            ("list_routes", ["owner_id": people.annID]), ("get_route", ["owner_id": 999_999]),
            ("post_waypoints", ["route_id": route, "waypoints": [["ts": 2, "data": "x"]]]),
            ("deactivate_route", ["route_id": route]), ("delete_route", ["route_id": route]),
            ("deactivate_route", ["route_id": 999_999]),
        ] {
            let response = try await bob.call(method, fields)
            #expect(response.errorCode == "not_found", "\(method) \(fields)")
        }
        // Following Ann does not let Bob change her routes, and a follower's own get_route of a route
        // belonging to someone else (by id) is not_found.
        _ = try await ann.call("allow_follower", ["email": people.bob.email])
        #expect(try await bob.call("delete_route", ["route_id": route]).errorCode == "not_found")
        let bobRoute = try #require(try await bob.call("start_route")["route_id"] as? Int)
        #expect(try await bob.call("get_route", ["owner_id": people.annID, "route_id": bobRoute]).errorCode == "not_found")
        #expect(try await ann.call("allow_follower", ["email": "nobody@example.org"]).errorCode == "not_found")
        #expect(try await ann.call("allow_follower", ["email": people.ann.email]).errorCode == "invalid_field")
        #expect(try await people.server.connect().call("start_route").errorCode == "unauthenticated")
        try await people.server.stop()
    }

    @Test("hostile batches are refused whole and store nothing")
    func hostileInput() async throws {
        let people = try await TwoPeople.start()
        let ann = people.annSocket
        let route = try #require(try await ann.call("start_route")["route_id"] as? Int)
        let tooLong = String(repeating: "A", count: 1025)
        let cases: [(String, Any)] = [
            ("not an array", "v2:AAAA"), ("empty", [Any]()), ("501 waypoints", (0..<501).map { ["ts": $0, "data": "x"] }),
            ("data over 1 KiB", [["ts": 1, "data": "ok"], ["ts": 2, "data": tooLong]]), ("empty data", [["ts": 1, "data": ""]]),
            ("number as data", [["ts": 1, "data": 5]]), ("fractional ts", [["ts": 1.5, "data": "x"]]),
            ("negative ts", [["ts": -1, "data": "x"]]), ("ts past 2^53", [["ts": 9_007_199_254_740_992, "data": "x"]]),
            ("entry not an object", [["x"]]), ("missing ts", [["data": "x"]]),
        ]
        for (name, waypoints) in cases {
            let response = try await ann.call("post_waypoints", ["route_id": route, "waypoints": waypoints])
            #expect(response.errorCode == "invalid_field" || response.errorCode == "missing_field", "\(name): \(response)")
        }
        #expect(try await ann.call("post_waypoints", ["route_id": "1", "waypoints": [["ts": 1, "data": "x"]]]).errorCode == "invalid_field")
        #expect(try await ann.call("post_waypoints", ["route_id": route]).errorCode == "missing_field")
        #expect(try await ann.call("get_route", ["limit": 501]).errorCode == "invalid_field")
        #expect(try await ann.call("get_route", ["owner_id": -3]).errorCode == "invalid_field")
        let view = try await ann.call("get_route")
        #expect(view["waypoint_count"] as? Int == 0 && (view["waypoints"] as? [Any])?.isEmpty == true)

        // 500 waypoints of 1 KiB each is the largest batch, and it is accepted.
        let full = (0..<500).map { ["ts": $0, "data": String(repeating: "B", count: 1024)] }
        #expect(try await ann.call("post_waypoints", ["route_id": route, "waypoints": full])["stored"] as? Int == 500)
        // A deactivated route takes no more waypoints; a deleted one is gone.
        #expect(try await ann.call("deactivate_route", ["route_id": route]).ok)
        #expect(try await ann.call("post_waypoints", ["route_id": route, "waypoints": [["ts": 9999, "data": "x"]]]).errorCode == "conflict")
        #expect(try await ann.call("delete_route", ["route_id": route]).ok)
        #expect(try await ann.call("get_route", ["route_id": route]).errorCode == "not_found")
        #expect(try await ann.call("get_route").errorCode == "not_found")
        try await people.server.stop()
    }
}
