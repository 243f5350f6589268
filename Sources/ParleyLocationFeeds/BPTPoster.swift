import ParleyLocation

/// Posting positions to a Berry Picker Tracker server as the app does (`post`/`replay --bpt`): every waypoint
/// sealed with the tracker key (all checked before anything is sent), posted in batches on the route given, or
/// on a new one started at the first post; a route to retire is ended first, as the app ends one when
/// tracking stops.
public struct BPTPoster {
    /// What one post stored.
    public struct Posted: Sendable, Equatable {
        /// The tracker route the positions went to.
        public var routeID: String
        /// How many positions were stored.
        public var stored: Int
    }

    private let tracker: BPTClient
    private let key: LegacyKey
    private let userID: String
    private var routeID: String?
    private var retiring: String?

    /// Posts for `userID` through `tracker`, sealing with `key`; on `routeID` (nil: a new route), after ending `retiring`.
    public init(tracker: BPTClient, key: LegacyKey, userID: String, routeID: String?, retiring: String? = nil) {
        self.tracker = tracker
        self.key = key
        self.userID = userID
        self.routeID = routeID
        self.retiring = retiring
    }

    /// Seals and posts `waypoints`. `started` is told of a route started now (to remember it, which may fail the
    /// post); `note` hears what went wrong on the side without stopping the post.
    public mutating func post(_ waypoints: [Waypoint], started: (String) throws -> Void, note: (String) -> Void) async throws -> Posted {
        var sealed: [LegacyWaypoint] = []
        for (index, waypoint) in waypoints.enumerated() {
            do {
                sealed.append(try LegacyWaypoint.seal(waypoint, key: key))
            } catch {
                throw LocationFeedError(waypoints.count == 1 ? "\(error)" : "position \(index + 1): \(error)")
            }
        }
        let remembered = routeID != nil
        let route = try await currentRoute(started: started, note: note)
        var stored = 0
        while stored < sealed.count {
            let batch = Array(sealed[stored..<min(stored + BPTRequestBody.batchSize, sealed.count)])
            do {
                try await tracker.postWaypoints(BPTRequestBody.waypoints(batch, routeID: route), count: batch.count)
            } catch {
                guard stored == 0 else { throw LocationFeedError("\(error) (\(stored) of \(sealed.count) positions were stored before)") }
                // A route remembered from before may be gone from the server (its data was reset): say how to go on.
                throw LocationFeedError(remembered ? "\(error); if it keeps failing, the server may have lost route \(route): add --new-route" : "\(error)")
            }
            stored += batch.count
        }
        return Posted(routeID: route, stored: stored)
    }

    /// The route to post to: the known one, else a new one started now.
    private mutating func currentRoute(started: (String) throws -> Void, note: (String) -> Void) async throws -> String {
        if let routeID { return routeID }
        if let retiring {
            // As the app does when tracking stops; a failure here must not lose the positions.
            do { try await tracker.deactivateRoute(retiring) } catch { note("the previous tracker route was not ended: \(error)") }
            self.retiring = nil
        }
        let route = try await tracker.startRoute(userID: userID)
        try started(route)
        routeID = route
        note("started tracker route \(route)")
        return route
    }
}
