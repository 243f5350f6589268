import Foundation

/// Following someone's location (`location follow`): their route so far, then what they post as it arrives,
/// each waypoint once.
public struct LocationFollower: Sendable {
    /// New points of one route, none of them handed over before.
    public struct Batch: Sendable, Equatable {
        /// The route they were posted to.
        public let routeID: Int64
        /// The points, oldest first.
        public let points: [LocationPoint]
        /// Whether the route is another than the first one read and shows up here for the first time.
        public let newRoute: Bool
    }

    /// The account followed.
    public let owner: Int64
    /// Their e-mail when they were named by it; nil for a link.
    public let name: String?
    /// Their route as it was when following began.
    public let first: LocationRoutePage
    private let updates: AsyncStream<LocationUpdate>?

    /// Starts following `target`, a contact's e-mail or a `parley://location` link (whose key is remembered),
    /// and reads their route `route` (the newest when nil). With `live`, subscribes first, so nothing posted
    /// while the route is read is missed.
    public static func start(following target: String, route: Int64?, live: Bool, client: ParleyClient) async throws(ClientError) -> LocationFollower {
        let isLink = target.lowercased().hasPrefix("parley:")
        let owner = isLink ? try await client.following.rememberLink(target) : try await client.location.sharer(target)
        let updates = live ? client.following.updates(from: owner) : nil
        let page = try await client.following.routeAll(of: owner, routeID: route)
        return LocationFollower(owner: owner, name: isLink ? nil : target, first: page, updates: updates)
    }

    /// Hands each batch of new points to `take` until it returns false, or the stream ends; nothing without
    /// `live`. A point read with the first route, or in an earlier batch, is not handed over again.
    public func follow(_ take: (Batch) async throws -> Bool) async rethrows {
        guard let updates else { return }
        var cursor = WaypointCursor(route: first.route.id, lastShown: first.points.last?.waypointID ?? 0)
        for await update in updates {
            let (fresh, newRoute) = cursor.take(update.points, route: update.routeID)
            guard !fresh.isEmpty else { continue }
            guard try await take(Batch(routeID: update.routeID, points: fresh, newRoute: newRoute)) else { return }
        }
    }
}

/// Which waypoints a follower has shown: the last one, per route (a route's waypoint ids increase).
public struct WaypointCursor: Sendable, Equatable {
    private let firstRoute: Int64
    private var lastShown: [Int64: Int64]

    /// Starting with `route`, shown up to the waypoint `lastShown` (0: none).
    public init(route: Int64, lastShown: Int64) {
        firstRoute = route
        self.lastShown = [route: lastShown]
    }

    /// Those of `points` (of `route`) after the last shown, which then count as shown; and whether `route` is
    /// another than the first and has points shown for the first time.
    public mutating func take(_ points: [LocationPoint], route: Int64) -> (fresh: [LocationPoint], newRoute: Bool) {
        let known = lastShown[route]
        let fresh = points.filter { $0.waypointID > known ?? 0 }
        guard let newest = fresh.map(\.waypointID).max() else { return ([], false) }
        lastShown[route] = newest
        return (fresh, route != firstRoute && known == nil)
    }
}
