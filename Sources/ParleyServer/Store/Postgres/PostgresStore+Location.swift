import Foundation
import PostgresNIO

extension PostgresStore {
    static func routeRecord(_ row: PostgresRandomAccessRow) throws -> RouteRecord {
        RouteRecord(
            id: try row.get("id"), ownerID: try row.get("owner_id"), active: try row.get("active"),
            startedAt: try row.get("started_at"), endedAt: try row.get("ended_at"), waypointCount: try row.get("waypoint_count"))
    }

    public func startRoute(ownerID: Int64, now: Int64) async throws -> RouteRecord {
        try await transaction("route") { db, log in
            // Lock the owner: two routes started at once cannot both stay active.
            try await db.run("SELECT 1 FROM accounts WHERE id = \(ownerID) FOR UPDATE", log)
            try await db.run(
                "UPDATE location_routes SET active = FALSE, ended_at = \(now) WHERE owner_id = \(ownerID) AND active", log)
            guard let id = try await db.scalar(
                "INSERT INTO location_routes (owner_id, started_at) VALUES (\(ownerID), \(now)) RETURNING id", log, as: Int64.self)
            else { throw StoreError.unavailable("route insert returned no id") }
            return RouteRecord(id: id, ownerID: ownerID, active: true, startedAt: now, endedAt: nil, waypointCount: 0)
        }
    }

    public func route(id: Int64) async throws -> RouteRecord? {
        try await read { db, log in try await db.row("SELECT * FROM location_routes WHERE id = \(id)", log).map(Self.routeRecord) }
    }

    public func latestRoute(ownerID: Int64) async throws -> RouteRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM location_routes WHERE owner_id = \(ownerID) ORDER BY id DESC LIMIT 1", log)
                .map(Self.routeRecord)
        }
    }

    public func routes(ownerID: Int64, beforeID: Int64?, limit: Int) async throws -> [RouteRecord] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT * FROM location_routes WHERE owner_id = \(ownerID) AND id < \(beforeID ?? Int64.max)
                ORDER BY id DESC LIMIT \(Self.sqlLimit(limit))
                """, log
            ).map(Self.routeRecord)
        }
    }

    public func appendWaypoints(routeID: Int64, _ waypoints: [NewWaypoint], limit: Int64, ownerLimit: Int64, now: Int64) async throws -> [WaypointRecord] {
        try await transaction("waypoints") { db, log in
            // FOR UPDATE: concurrent batches on one route count against the limit one after another.
            guard let row = try await db.row("SELECT * FROM location_routes WHERE id = \(routeID) FOR UPDATE", log) else {
                throw StoreError.conflict("route")
            }
            let route = try Self.routeRecord(row)
            guard route.active else { throw StoreError.conflict("inactive route") }
            var stored: [WaypointRecord] = []
            for waypoint in waypoints {
                if let id = try await db.scalar(
                    """
                    INSERT INTO location_waypoints (route_id, ts, data, received_at)
                    VALUES (\(routeID), \(waypoint.timestamp), \(waypoint.data), \(now))
                    ON CONFLICT (route_id, ts) DO NOTHING RETURNING id
                    """, log, as: Int64.self)
                {
                    stored.append(WaypointRecord(id: id, timestamp: waypoint.timestamp, data: waypoint.data))
                }
            }
            guard route.waypointCount + Int64(stored.count) <= limit else { throw StoreError.conflict("route waypoint limit") }
            // Only the active route takes waypoints, and its row is locked above: the owner's posts count one after another.
            let owned = try await db.scalar(
                "SELECT COALESCE(SUM(waypoint_count), 0)::BIGINT FROM location_routes WHERE owner_id = \(route.ownerID)", log, as: Int64.self) ?? 0
            guard Int64(stored.count) <= ownerLimit - owned else { throw StoreError.conflict("account waypoint limit") }
            try await db.run(
                "UPDATE location_routes SET waypoint_count = waypoint_count + \(Int64(stored.count)) WHERE id = \(routeID)", log)
            return stored
        }
    }

    public func waypoints(routeID: Int64, afterID: Int64, limit: Int) async throws -> [WaypointRecord] {
        try await read { db, log in
            try await db.rows(
                "SELECT id, ts, data FROM location_waypoints WHERE route_id = \(routeID) AND id > \(afterID) ORDER BY id LIMIT \(Self.sqlLimit(limit))",
                log
            ).map { WaypointRecord(id: try $0.get("id"), timestamp: try $0.get("ts"), data: try $0.get("data")) }
        }
    }

    public func deactivateRoute(id: Int64, now: Int64) async throws {
        try await transaction("route") { db, log in
            try await db.run("UPDATE location_routes SET active = FALSE, ended_at = \(now) WHERE id = \(id) AND active", log)
        }
    }

    public func deleteRoute(id: Int64) async throws {
        try await transaction("route") { db, log in
            try await db.run("DELETE FROM location_waypoints WHERE route_id = \(id)", log)
            try await db.run("DELETE FROM location_routes WHERE id = \(id)", log)
        }
    }

    public func allowFollower(ownerID: Int64, followerID: Int64, now: Int64) async throws -> Bool {
        try await transaction("follower") { db, log in
            try await db.row(
                """
                INSERT INTO location_followers (owner_id, follower_id, since) VALUES (\(ownerID), \(followerID), \(now))
                ON CONFLICT DO NOTHING RETURNING 1
                """, log) != nil
        }
    }

    public func revokeFollower(ownerID: Int64, followerID: Int64) async throws -> Bool {
        try await transaction("follower") { db, log in
            try await db.row(
                "DELETE FROM location_followers WHERE owner_id = \(ownerID) AND follower_id = \(followerID) RETURNING 1", log) != nil
        }
    }

    public func isFollower(ownerID: Int64, followerID: Int64) async throws -> Bool {
        try await read { db, log in
            try await db.row("SELECT 1 FROM location_followers WHERE owner_id = \(ownerID) AND follower_id = \(followerID)", log) != nil
        }
    }

    public func followers(ownerID: Int64) async throws -> [(accountID: Int64, since: Int64)] {
        try await read { db, log in
            try await db.rows(
                "SELECT follower_id, since FROM location_followers WHERE owner_id = \(ownerID) ORDER BY since, follower_id", log
            ).map { (accountID: try $0.get("follower_id", as: Int64.self), since: try $0.get("since", as: Int64.self)) }
        }
    }

    public func following(followerID: Int64) async throws -> [Int64] {
        try await read { db, log in
            try await db.column(
                "SELECT owner_id FROM location_followers WHERE follower_id = \(followerID) ORDER BY since, owner_id", log, as: Int64.self)
        }
    }
}
