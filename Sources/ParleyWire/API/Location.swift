/// Location sharing (docs/API.md §12): routes of client-encrypted waypoints, readable only by the followers
/// their owner allowed. The server never sees a position, only counts and timestamps.
extension API {
    static let locationMethods: [any APIMethod.Type] = [
        StartRoute.self, PostWaypoints.self, DeactivateRoute.self, DeleteRoute.self, ListRoutes.self, GetRoute.self,
        AllowFollower.self, RevokeFollower.self, ListFollowers.self, ListFollowing.self,
    ]

    /// A request that names one route of the caller's own.
    public struct RouteRef: WireBody {
        public var routeID: Int64
        public init(routeID: Int64) { self.routeID = routeID }
        public init(from fields: WireFields) throws(WireError) { routeID = try fields.integer("route_id", in: 1...Int64.max) }
        public var fields: [String: JSONValue] { ["route_id": .int(routeID)] }
        public static let fieldNames = ["route_id"]
    }

    /// A route as the server describes it.
    public struct Route: WireBody {
        public var routeID: Int64
        public var ownerID: Int64
        public var active: Bool
        public var startedAt: Int64
        public var endedAt: Int64?
        public var waypointCount: Int64
        public init(routeID: Int64, ownerID: Int64, active: Bool, startedAt: Int64, endedAt: Int64? = nil, waypointCount: Int64) {
            self.routeID = routeID
            self.ownerID = ownerID
            self.active = active
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.waypointCount = waypointCount
        }
        public init(from fields: WireFields) throws(WireError) {
            routeID = try fields.integer("route_id")
            ownerID = try fields.integer("owner_id")
            active = try fields.bool("active")
            startedAt = try fields.integer("started_at")
            endedAt = try fields.optionalInteger("ended_at")
            waypointCount = try fields.integer("waypoint_count")
        }
        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "route_id": .int(routeID), "owner_id": .int(ownerID), "active": .bool(active), "started_at": .int(startedAt),
                "waypoint_count": .int(waypointCount),
            ]
            out.set("ended_at", endedAt.map(JSONValue.int))
            return out
        }
        public static let fieldNames = ["route_id", "owner_id", "active", "started_at", "ended_at?", "waypoint_count"]
    }

    /// One encrypted waypoint as posted: its clear timestamp and its sealed value.
    public struct NewWaypoint: WireBody {
        /// Largest timestamp: JSON numbers are exact below 2^53.
        public static let maximumTimestamp: Int64 = (1 << 53) - 1
        /// Longest sealed value (bytes); a v2 waypoint needs about 150.
        public static let maximumDataBytes = 1024
        public var ts: Int64
        public var data: String
        public init(ts: Int64, data: String) {
            self.ts = ts
            self.data = data
        }
        public init(from fields: WireFields) throws(WireError) {
            ts = try fields.integer("ts", in: 0...Self.maximumTimestamp)
            data = try fields.string("data", maxBytes: Self.maximumDataBytes)
            guard !data.isEmpty else { throw .invalid(fields.name(of: "data"), "must not be empty") }
        }
        public var fields: [String: JSONValue] { ["ts": .int(ts), "data": .string(data)] }
        public static let fieldNames = ["ts", "data"]
    }

    /// One stored waypoint, as a follower reads it.
    public struct StoredWaypoint: WireBody {
        public var waypointID: Int64
        public var ts: Int64
        public var data: String
        public init(waypointID: Int64, ts: Int64, data: String) {
            self.waypointID = waypointID
            self.ts = ts
            self.data = data
        }
        public init(from fields: WireFields) throws(WireError) {
            waypointID = try fields.integer("waypoint_id")
            ts = try fields.integer("ts")
            data = try fields.string("data", maxBytes: NewWaypoint.maximumDataBytes)
        }
        public var fields: [String: JSONValue] { ["waypoint_id": .int(waypointID), "ts": .int(ts), "data": .string(data)] }
        public static let fieldNames = ["waypoint_id", "ts", "data"]
    }

    /// Starts a route; any other active route of the caller ends (`start_route`).
    public enum StartRoute: APIMethod {
        public static let name = "start_route"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public struct Response: WireBody {
            public var routeID: Int64
            public var startedAt: Int64
            public init(routeID: Int64, startedAt: Int64) {
                self.routeID = routeID
                self.startedAt = startedAt
            }
            public init(from fields: WireFields) throws(WireError) {
                routeID = try fields.integer("route_id")
                startedAt = try fields.integer("started_at")
            }
            public var fields: [String: JSONValue] { ["route_id": .int(routeID), "started_at": .int(startedAt)] }
            public static let fieldNames = ["route_id", "started_at"]
        }
    }

    /// Adds waypoints to one of the caller's active routes; a repeated timestamp is a duplicate (`post_waypoints`).
    public enum PostWaypoints: APIMethod {
        public static let name = "post_waypoints"
        public static let requiresLogin = true
        /// Most waypoints per request.
        public static let maximumBatch = 500

        public struct Request: WireBody {
            public var routeID: Int64
            public var waypoints: [NewWaypoint]
            public init(routeID: Int64, waypoints: [NewWaypoint]) {
                self.routeID = routeID
                self.waypoints = waypoints
            }
            public init(from fields: WireFields) throws(WireError) {
                routeID = try fields.integer("route_id", in: 1...Int64.max)
                waypoints = try fields.list("waypoints", maxCount: PostWaypoints.maximumBatch)
                guard !waypoints.isEmpty else { throw .invalid("waypoints", "must not be empty") }
            }
            public var fields: [String: JSONValue] { ["route_id": .int(routeID), "waypoints": .list(waypoints)] }
            public static let fieldNames = ["route_id", "waypoints"]
        }

        public struct Response: WireBody {
            public var stored: Int64
            public var duplicates: Int64
            /// The newest stored waypoint's id; nil when every one was a duplicate.
            public var lastWaypointID: Int64?
            public init(stored: Int64, duplicates: Int64, lastWaypointID: Int64?) {
                self.stored = stored
                self.duplicates = duplicates
                self.lastWaypointID = lastWaypointID
            }
            public init(from fields: WireFields) throws(WireError) {
                stored = try fields.integer("stored")
                duplicates = try fields.integer("duplicates")
                lastWaypointID = try fields.optionalInteger("last_waypoint_id")
            }
            public var fields: [String: JSONValue] {
                ["stored": .int(stored), "duplicates": .int(duplicates), "last_waypoint_id": lastWaypointID.map(JSONValue.int) ?? .null]
            }
            public static let fieldNames = ["stored", "duplicates", "last_waypoint_id?"]
        }
    }

    /// Ends one of the caller's routes; followers can still read it (`deactivate_route`).
    public enum DeactivateRoute: APIMethod {
        public static let name = "deactivate_route"
        public static let requiresLogin = true
        public typealias Request = RouteRef
        public typealias Response = NoFields
    }

    /// Deletes one of the caller's routes with its waypoints (`delete_route`).
    public enum DeleteRoute: APIMethod {
        public static let name = "delete_route"
        public static let requiresLogin = true
        public typealias Request = RouteRef
        public typealias Response = NoFields
    }

    /// A page of routes of the caller or of someone they follow, newest first (`list_routes`).
    public enum ListRoutes: APIMethod {
        public static let name = "list_routes"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// Whose routes; the caller's own when nil.
            public var ownerID: Int64?
            public var beforeRouteID: Int64?
            /// 1–500, 100 when nil.
            public var limit: Int64?
            public init(ownerID: Int64? = nil, beforeRouteID: Int64? = nil, limit: Int64? = nil) {
                self.ownerID = ownerID
                self.beforeRouteID = beforeRouteID
                self.limit = limit
            }
            public init(from fields: WireFields) throws(WireError) {
                ownerID = try fields.optionalInteger("owner_id", in: 1...Int64.max)
                beforeRouteID = try fields.optionalInteger("before_route_id", in: 1...Int64.max)
                limit = try fields.optionalInteger("limit", in: 1...500)
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("owner_id", ownerID.map(JSONValue.int))
                out.set("before_route_id", beforeRouteID.map(JSONValue.int))
                out.set("limit", limit.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["owner_id?", "before_route_id?", "limit?"]
        }

        public struct Response: WireBody {
            public var ownerID: Int64
            public var routes: [Route]
            public var hasMore: Bool
            public init(ownerID: Int64, routes: [Route], hasMore: Bool) {
                self.ownerID = ownerID
                self.routes = routes
                self.hasMore = hasMore
            }
            public init(from fields: WireFields) throws(WireError) {
                ownerID = try fields.integer("owner_id")
                routes = try fields.list("routes", maxCount: 500)
                hasMore = try fields.bool("has_more")
            }
            public var fields: [String: JSONValue] { ["owner_id": .int(ownerID), "routes": .list(routes), "has_more": .bool(hasMore)] }
            public static let fieldNames = ["owner_id", "routes", "has_more"]
        }
    }

    /// A route (the owner's newest when no id is given) and a page of its waypoints (`get_route`).
    public enum GetRoute: APIMethod {
        public static let name = "get_route"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var ownerID: Int64?
            public var routeID: Int64?
            public var afterWaypointID: Int64?
            /// 1–500, 500 when nil.
            public var limit: Int64?
            public init(ownerID: Int64? = nil, routeID: Int64? = nil, afterWaypointID: Int64? = nil, limit: Int64? = nil) {
                self.ownerID = ownerID
                self.routeID = routeID
                self.afterWaypointID = afterWaypointID
                self.limit = limit
            }
            public init(from fields: WireFields) throws(WireError) {
                ownerID = try fields.optionalInteger("owner_id", in: 1...Int64.max)
                routeID = try fields.optionalInteger("route_id", in: 1...Int64.max)
                afterWaypointID = try fields.optionalInteger("after_waypoint_id")
                limit = try fields.optionalInteger("limit", in: 1...Int64(PostWaypoints.maximumBatch))
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("owner_id", ownerID.map(JSONValue.int))
                out.set("route_id", routeID.map(JSONValue.int))
                out.set("after_waypoint_id", afterWaypointID.map(JSONValue.int))
                out.set("limit", limit.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["owner_id?", "route_id?", "after_waypoint_id?", "limit?"]
        }

        public struct Response: WireBody {
            public var route: Route
            public var waypoints: [StoredWaypoint]
            public var hasMore: Bool
            public init(route: Route, waypoints: [StoredWaypoint], hasMore: Bool) {
                self.route = route
                self.waypoints = waypoints
                self.hasMore = hasMore
            }
            public init(from fields: WireFields) throws(WireError) {
                route = try Route(from: fields)
                waypoints = try fields.list("waypoints", maxCount: PostWaypoints.maximumBatch)
                hasMore = try fields.bool("has_more")
            }
            public var fields: [String: JSONValue] {
                var out = route.fields
                out["waypoints"] = .list(waypoints)
                out["has_more"] = .bool(hasMore)
                return out
            }
            public static let fieldNames = Route.fieldNames + ["waypoints", "has_more"]
        }
    }

    /// Lets another person read the caller's routes (`allow_follower`), named by e-mail or account id.
    public enum AllowFollower: APIMethod {
        public static let name = "allow_follower"
        public static let requiresLogin = true
        public typealias Request = AccountChoice
        public struct Response: WireBody {
            public var accountID: Int64
            /// False when they were allowed already.
            public var added: Bool
            public init(accountID: Int64, added: Bool) {
                self.accountID = accountID
                self.added = added
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                added = try fields.bool("added")
            }
            public var fields: [String: JSONValue] { ["account_id": .int(accountID), "added": .bool(added)] }
            public static let fieldNames = ["account_id", "added"]
        }
    }

    /// Stops a follower reading the caller's routes (`revoke_follower`).
    public enum RevokeFollower: APIMethod {
        public static let name = "revoke_follower"
        public static let requiresLogin = true
        public struct Request: WireBody {
            public var accountID: Int64
            public init(accountID: Int64) { self.accountID = accountID }
            public init(from fields: WireFields) throws(WireError) { accountID = try fields.integer("account_id", in: 1...Int64.max) }
            public var fields: [String: JSONValue] { ["account_id": .int(accountID)] }
            public static let fieldNames = ["account_id"]
        }
        public struct Response: WireBody {
            /// False when they were not a follower.
            public var removed: Bool
            public init(removed: Bool) { self.removed = removed }
            public init(from fields: WireFields) throws(WireError) { removed = try fields.bool("removed") }
            public var fields: [String: JSONValue] { ["removed": .bool(removed)] }
            public static let fieldNames = ["removed"]
        }
    }

    /// One follower and since when they may read.
    public struct Follower: WireBody {
        public var accountID: Int64
        public var since: Int64
        public init(accountID: Int64, since: Int64) {
            self.accountID = accountID
            self.since = since
        }
        public init(from fields: WireFields) throws(WireError) {
            accountID = try fields.integer("account_id")
            since = try fields.integer("since")
        }
        public var fields: [String: JSONValue] { ["account_id": .int(accountID), "since": .int(since)] }
        public static let fieldNames = ["account_id", "since"]
    }

    /// Who may read the caller's routes (`list_followers`).
    public enum ListFollowers: APIMethod {
        public static let name = "list_followers"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public struct Response: WireBody {
            public var followers: [Follower]
            public init(followers: [Follower]) { self.followers = followers }
            public init(from fields: WireFields) throws(WireError) { followers = try fields.list("followers", maxCount: 100_000) }
            public var fields: [String: JSONValue] { ["followers": .list(followers)] }
            public static let fieldNames = ["followers"]
        }
    }

    /// Whose routes the caller may read (`list_following`).
    public enum ListFollowing: APIMethod {
        public static let name = "list_following"
        public static let requiresLogin = true
        public typealias Request = NoFields
        public struct Response: WireBody {
            public var ownerIDs: [Int64]
            public init(ownerIDs: [Int64]) { self.ownerIDs = ownerIDs }
            public init(from fields: WireFields) throws(WireError) { ownerIDs = try fields.integers("owner_ids", maxCount: 100_000) }
            public var fields: [String: JSONValue] { ["owner_ids": .ints(ownerIDs)] }
            public static let fieldNames = ["owner_ids"]
        }
    }
}
