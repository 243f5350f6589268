/// A route a person shares their location on; the server sees only when and how many, never where.
public struct RouteRecord: Sendable, Equatable {
    /// Server-assigned id, also bound into every v2 waypoint (docs/FORMATS.md §13.3).
    public var id: Int64
    /// The account sharing its location.
    public var ownerID: Int64
    /// Whether waypoints may still be posted.
    public var active: Bool
    /// When `start_route` ran (ms).
    public var startedAt: Int64
    /// When the route was deactivated (ms), if it was.
    public var endedAt: Int64?
    /// Waypoints stored on the route.
    public var waypointCount: Int64
}

/// One stored waypoint: an opaque client-encrypted string and the clear timestamp it is bound to.
public struct WaypointRecord: Sendable, Equatable {
    /// Server-assigned id, increasing in posting order; the paging cursor.
    public var id: Int64
    /// The waypoint's own timestamp (ms), as the client sent it.
    public var timestamp: Int64
    /// The encrypted waypoint (legacy or `v2:`), never interpreted by the server.
    public var data: String
}

/// One waypoint as posted, before it has an id.
public struct NewWaypoint: Sendable, Equatable {
    /// The waypoint's timestamp (ms).
    public var timestamp: Int64
    /// The encrypted waypoint.
    public var data: String

    /// A waypoint to store.
    public init(timestamp: Int64, data: String) {
        self.timestamp = timestamp
        self.data = data
    }
}

/// Routes, their encrypted waypoints, and who may follow whom.
public protocol LocationStore: Sendable {
    /// Starts a route for `ownerID`, deactivating any other active route of theirs (one live route per person).
    func startRoute(ownerID: Int64, now: Int64) async throws -> RouteRecord

    /// A route by id.
    func route(id: Int64) async throws -> RouteRecord?

    /// The owner's newest route, if any.
    func latestRoute(ownerID: Int64) async throws -> RouteRecord?

    /// The owner's routes, newest first, with ids below `beforeID` when given.
    func routes(ownerID: Int64, beforeID: Int64?, limit: Int) async throws -> [RouteRecord]

    /// Stores waypoints on an active route; a timestamp already on the route is skipped, so a retried
    /// batch stores nothing twice. Returns the records stored now. Throws `.conflict` when the route is
    /// inactive or would pass `limit` waypoints, and `.conflict("account waypoint limit")` when the owner's routes
    /// still kept would together pass `ownerLimit` waypoints posted.
    func appendWaypoints(routeID: Int64, _ waypoints: [NewWaypoint], limit: Int64, ownerLimit: Int64, now: Int64) async throws -> [WaypointRecord]

    /// Waypoints of a route with ids above `afterID`, oldest first.
    func waypoints(routeID: Int64, afterID: Int64, limit: Int) async throws -> [WaypointRecord]

    /// Marks a route inactive (no more waypoints).
    func deactivateRoute(id: Int64, now: Int64) async throws

    /// Deletes a route and its waypoints.
    func deleteRoute(id: Int64) async throws

    /// Lets `followerID` read `ownerID`'s routes; returns false when it already could.
    func allowFollower(ownerID: Int64, followerID: Int64, now: Int64) async throws -> Bool

    /// Stops `followerID` reading `ownerID`'s routes; returns false when it could not anyway.
    func revokeFollower(ownerID: Int64, followerID: Int64) async throws -> Bool

    /// Whether `followerID` may read `ownerID`'s routes.
    func isFollower(ownerID: Int64, followerID: Int64) async throws -> Bool

    /// Who may read `ownerID`'s routes, with when they were allowed (ms), oldest first.
    func followers(ownerID: Int64) async throws -> [(accountID: Int64, since: Int64)]

    /// Whose routes `followerID` may read, oldest permission first.
    func following(followerID: Int64) async throws -> [Int64]
}

extension LocationStore {
    /// Stores waypoints whatever the owner's other routes hold (tests).
    public func appendWaypoints(routeID: Int64, _ waypoints: [NewWaypoint], limit: Int64, now: Int64) async throws -> [WaypointRecord] {
        try await appendWaypoints(routeID: routeID, waypoints, limit: limit, ownerLimit: .max, now: now)
    }
}
