import ParleyLocation
import ParleyWire

/// A route as the server describes it (docs/API.md §12): who shares it, whether it is live, how long.
public struct LocationRoute: Sendable, Equatable, Codable {
    /// The server's route id (bound into every v2 waypoint).
    public let id: Int64
    /// The account sharing it.
    public let ownerID: Int64
    /// Whether waypoints may still be posted to it.
    public let active: Bool
    /// When it started, ms since the epoch.
    public let startedAt: Int64
    /// When it was deactivated, ms, if it was.
    public let endedAt: Int64?
    /// How many waypoints the server holds for it.
    public let waypointCount: Int64

    init(_ route: API.Route) {
        id = route.routeID
        ownerID = route.ownerID
        active = route.active
        startedAt = route.startedAt
        endedAt = route.endedAt
        waypointCount = route.waypointCount
    }
}

/// One stored waypoint as a follower sees it: decrypted, or the reason it could not be.
public struct LocationPoint: Sendable, Equatable {
    /// The server's waypoint id (increasing in posting order; the paging cursor).
    public let waypointID: Int64
    /// The clear timestamp the server stores beside it, ms.
    public let timestamp: Int64
    /// The decrypted, authenticated position; nil when it could not be opened.
    public let waypoint: Waypoint?
    /// Why it could not be opened (no key held opens it, it was altered, a legacy value…); never key material.
    public let problem: String?

    /// A waypoint as a follower sees it (an app's tests make their own).
    public init(waypointID: Int64, timestamp: Int64, waypoint: Waypoint?, problem: String?) {
        self.waypointID = waypointID
        self.timestamp = timestamp
        self.waypoint = waypoint
        self.problem = problem
    }
}

/// A page of a route: its description and some of its waypoints, oldest first.
public struct LocationRoutePage: Sendable, Equatable {
    /// The route.
    public let route: LocationRoute
    /// Its waypoints after the requested cursor.
    public let points: [LocationPoint]
    /// Whether more waypoints follow (ask again after the last `waypointID`).
    public let hasMore: Bool

    /// The positions that decrypted.
    public var waypoints: [Waypoint] { points.compactMap(\.waypoint) }
    /// How many could not be decrypted.
    public var failures: Int { points.filter { $0.waypoint == nil }.count }
}

/// A page of someone's routes, newest first.
public struct LocationRouteList: Sendable, Equatable {
    /// The routes.
    public let routes: [LocationRoute]
    /// Whether older routes follow (ask again before the last route's id).
    public let hasMore: Bool
}

/// What posting waypoints did.
public struct LocationPostResult: Sendable, Equatable {
    /// The route they went to (started when there was no active one).
    public let routeID: Int64
    /// Waypoints newly stored.
    public let stored: Int
    /// Waypoints the route already had (same timestamp), skipped.
    public let duplicates: Int
    /// The key epoch they were sealed under.
    public let keyEpoch: Int64
}

/// What allowing or revoking a follower did.
public struct LocationShareResult: Sendable, Equatable {
    /// The follower's account id.
    public let accountID: Int64
    /// The key epoch now in use.
    public let keyEpoch: Int64
    /// Followers the key was sent to over end-to-end messages.
    public let keySentTo: [Int64]
    /// Followers it could not be sent to (no known direct conversation or e-mail); they cannot read new waypoints
    /// until shared with again.
    public let keyNotSentTo: [Int64]
}

/// New waypoints of someone followed, as they arrive (`following.updates(from:)`).
public struct LocationUpdate: Sendable, Equatable {
    /// The sharer.
    public let ownerID: Int64
    /// The route they were posted to.
    public let routeID: Int64
    /// The new waypoints, oldest first.
    public let points: [LocationPoint]

    /// New waypoints of `ownerID`'s route `routeID` (an app's tests make their own).
    public init(ownerID: Int64, routeID: Int64, points: [LocationPoint]) {
        self.ownerID = ownerID
        self.routeID = routeID
        self.points = points
    }
}
