import Foundation
import GRDB

extension SQLiteStore {
    static func routeRecord(_ row: Row) -> RouteRecord {
        RouteRecord(
            id: row["id"], ownerID: row["owner_id"], active: row["active"], startedAt: row["started_at"],
            endedAt: row["ended_at"], waypointCount: row["waypoint_count"])
    }

    static func waypointRecord(_ row: Row) -> WaypointRecord {
        WaypointRecord(id: row["id"], timestamp: row["ts"], data: row["data"])
    }

    public func startRoute(ownerID: Int64, now: Int64) async throws -> RouteRecord {
        try await write("route") { db in
            try db.execute(
                sql: "UPDATE location_routes SET active = 0, ended_at = ? WHERE owner_id = ? AND active = 1",
                arguments: [now, ownerID])
            try db.execute(sql: "INSERT INTO location_routes (owner_id, started_at) VALUES (?, ?)", arguments: [ownerID, now])
            return RouteRecord(id: db.lastInsertedRowID, ownerID: ownerID, active: true, startedAt: now, endedAt: nil, waypointCount: 0)
        }
    }

    public func route(id: Int64) async throws -> RouteRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM location_routes WHERE id = ?", arguments: [id]).map(Self.routeRecord)
        }
    }

    public func latestRoute(ownerID: Int64) async throws -> RouteRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM location_routes WHERE owner_id = ? ORDER BY id DESC LIMIT 1", arguments: [ownerID])
                .map(Self.routeRecord)
        }
    }

    public func routes(ownerID: Int64, beforeID: Int64?, limit: Int) async throws -> [RouteRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM location_routes WHERE owner_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                arguments: [ownerID, beforeID ?? Int64.max, limit]
            ).map(Self.routeRecord)
        }
    }

    public func appendWaypoints(routeID: Int64, _ waypoints: [NewWaypoint], limit: Int64, ownerLimit: Int64, now: Int64) async throws -> [WaypointRecord] {
        try await write("waypoints") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM location_routes WHERE id = ?", arguments: [routeID]) else {
                throw StoreError.conflict("route")
            }
            let route = Self.routeRecord(row)
            guard route.active else { throw StoreError.conflict("inactive route") }
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO location_waypoints (route_id, ts, data, received_at) VALUES (?, ?, ?, ?)")
            var stored: [WaypointRecord] = []
            for waypoint in waypoints {
                try insert.execute(arguments: [routeID, waypoint.timestamp, waypoint.data, now])
                if db.changesCount > 0 {
                    stored.append(WaypointRecord(id: db.lastInsertedRowID, timestamp: waypoint.timestamp, data: waypoint.data))
                }
            }
            guard route.waypointCount + Int64(stored.count) <= limit else { throw StoreError.conflict("route waypoint limit") }
            let owned = try Int64.fetchOne(
                db, sql: "SELECT COALESCE(SUM(waypoint_count), 0) FROM location_routes WHERE owner_id = ?", arguments: [route.ownerID]) ?? 0
            guard Int64(stored.count) <= ownerLimit - owned else { throw StoreError.conflict("account waypoint limit") }
            try db.execute(
                sql: "UPDATE location_routes SET waypoint_count = waypoint_count + ? WHERE id = ?", arguments: [stored.count, routeID])
            return stored
        }
    }

    public func waypoints(routeID: Int64, afterID: Int64, limit: Int) async throws -> [WaypointRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, ts, data FROM location_waypoints WHERE route_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [routeID, afterID, limit]
            ).map(Self.waypointRecord)
        }
    }

    public func deactivateRoute(id: Int64, now: Int64) async throws {
        try await write("route") { db in
            try db.execute(sql: "UPDATE location_routes SET active = 0, ended_at = ? WHERE id = ? AND active = 1", arguments: [now, id])
        }
    }

    public func deleteRoute(id: Int64) async throws {
        try await write("route") { db in
            try db.execute(sql: "DELETE FROM location_waypoints WHERE route_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM location_routes WHERE id = ?", arguments: [id])
        }
    }

    public func allowFollower(ownerID: Int64, followerID: Int64, now: Int64) async throws -> Bool {
        try await write("follower") { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO location_followers (owner_id, follower_id, since) VALUES (?, ?, ?)",
                arguments: [ownerID, followerID, now])
            return db.changesCount > 0
        }
    }

    public func revokeFollower(ownerID: Int64, followerID: Int64) async throws -> Bool {
        try await write("follower") { db in
            try db.execute(sql: "DELETE FROM location_followers WHERE owner_id = ? AND follower_id = ?", arguments: [ownerID, followerID])
            return db.changesCount > 0
        }
    }

    public func isFollower(ownerID: Int64, followerID: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM location_followers WHERE owner_id = ? AND follower_id = ?", arguments: [ownerID, followerID]
            ) ?? false
        }
    }

    public func followers(ownerID: Int64) async throws -> [(accountID: Int64, since: Int64)] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT follower_id, since FROM location_followers WHERE owner_id = ? ORDER BY since, follower_id",
                arguments: [ownerID]
            ).map { (accountID: $0["follower_id"], since: $0["since"]) }
        }
    }

    public func following(followerID: Int64) async throws -> [Int64] {
        try await read { db in
            try Int64.fetchAll(
                db, sql: "SELECT owner_id FROM location_followers WHERE follower_id = ? ORDER BY since, owner_id",
                arguments: [followerID])
        }
    }
}
