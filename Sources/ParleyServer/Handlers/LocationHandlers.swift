import ParleyWire

/// Location sharing (docs/API.md §12): routes of client-encrypted waypoints, readable only by the
/// followers their owner allowed. The server never sees a position, only counts and timestamps.
enum LocationHandlers {
    /// Most waypoints one route holds (about four days of one fix every 4 s).
    static let maximumWaypointsPerRoute: Int64 = 100_000
    /// Most waypoints posted to one person's routes still kept (ten full routes; at most 1 KiB each, so about
    /// 1 GiB, like the file and undelivered-message quotas). Routes go after the retention TTL or when deleted.
    static let maximumWaypointsPerAccount: Int64 = 1_000_000

    static func register(in router: inout RequestRouter) {
        router.add(API.StartRoute.self) { _, environment, context throws(WireError) in
            let route = try await StoreCall.call(context) { try await context.store.startRoute(ownerID: environment.account.accountID, now: context.clock.now()) }
            return API.StartRoute.Response(routeID: route.id, startedAt: route.startedAt)
        }
        router.add(API.PostWaypoints.self) { request, environment, context throws(WireError) in
            try await postWaypoints(request, environment.account, context)
        }
        router.add(API.DeactivateRoute.self) { request, environment, context throws(WireError) in
            let route = try await ownRoute(request.routeID, environment.account, context)
            try await StoreCall.call(context) { try await context.store.deactivateRoute(id: route.id, now: context.clock.now()) }
            return NoFields()
        }
        router.add(API.DeleteRoute.self) { request, environment, context throws(WireError) in
            let route = try await ownRoute(request.routeID, environment.account, context)
            try await StoreCall.call(context) { try await context.store.deleteRoute(id: route.id) }
            return NoFields()
        }
        router.add(API.ListRoutes.self) { request, environment, context throws(WireError) in
            let owner = try await readableOwner(request.ownerID, environment.account, context)
            let limit = Int(request.limit ?? 100)
            let routes = try await StoreCall.call(context) {
                try await context.store.routes(ownerID: owner, beforeID: request.beforeRouteID, limit: limit + 1)
            }
            return API.ListRoutes.Response(ownerID: owner, routes: routes.prefix(limit).map(wire), hasMore: routes.count > limit)
        }
        router.add(API.GetRoute.self) { request, environment, context throws(WireError) in
            try await getRoute(request, environment.account, context)
        }
        LocationFollowerHandlers.register(in: &router)
    }

    static func postWaypoints(_ request: API.PostWaypoints.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.PostWaypoints.Response {
        let route = try await ownRoute(request.routeID, caller, context)
        let batch = request.waypoints.map { NewWaypoint(timestamp: $0.ts, data: $0.data) }
        let stored: [WaypointRecord]
        do {
            stored = try await context.store.appendWaypoints(
                routeID: route.id, batch, limit: maximumWaypointsPerRoute, ownerLimit: maximumWaypointsPerAccount, now: context.clock.now())
        } catch StoreError.conflict("route waypoint limit") {
            throw WireError(.quotaExceeded, "a route holds at most \(maximumWaypointsPerRoute) waypoints; start a new route")
        } catch StoreError.conflict("account waypoint limit") {
            throw WireError(.quotaExceeded, "your routes on this server hold the \(maximumWaypointsPerAccount) waypoints it keeps for you; "
                + "delete an old route (parley location delete-route ID) or wait for the oldest to expire")
        } catch StoreError.conflict {
            throw WireError(.conflict, "the route is no longer active; start a new route")
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        if let last = stored.last {
            try await notifyFollowers(of: caller.accountID, context, .init(
                ownerID: caller.accountID, routeID: route.id, count: Int64(stored.count), lastWaypointID: last.id))
        }
        return API.PostWaypoints.Response(stored: Int64(stored.count), duplicates: Int64(batch.count - stored.count), lastWaypointID: stored.last?.id)
    }

    static func getRoute(_ request: API.GetRoute.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.GetRoute.Response {
        let owner = try await readableOwner(request.ownerID, caller, context)
        let limit = Int(request.limit ?? Int64(API.PostWaypoints.maximumBatch))
        let route = try await StoreCall.call(context) { () async throws -> RouteRecord? in
            if let routeID = request.routeID { return try await context.store.route(id: routeID) }
            return try await context.store.latestRoute(ownerID: owner)
        }
        guard let route, route.ownerID == owner else { throw WireError(.notFound, "no such route") }
        let page = try await StoreCall.call(context) {
            try await context.store.waypoints(routeID: route.id, afterID: request.afterWaypointID ?? 0, limit: limit + 1)
        }
        return API.GetRoute.Response(
            route: wire(route),
            waypoints: page.prefix(limit).map { API.StoredWaypoint(waypointID: $0.id, ts: $0.timestamp, data: $0.data) },
            hasMore: page.count > limit)
    }

    /// A route of the caller's own; anyone else's route does not exist for them, not even for followers.
    static func ownRoute(_ id: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> RouteRecord {
        let route = try await StoreCall.call(context) { try await context.store.route(id: id) }
        guard let route, route.ownerID == caller.accountID else { throw WireError(.notFound, "no such route") }
        return route
    }

    /// `owner` (default: the caller) if the caller may read that person's routes; `not_found` otherwise,
    /// exactly as for an account that does not exist.
    static func readableOwner(_ requested: Int64?, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64 {
        let owner = requested ?? caller.accountID
        guard owner != caller.accountID else { return owner }
        let allowed = try await StoreCall.call(context) { try await context.store.isFollower(ownerID: owner, followerID: caller.accountID) }
        guard allowed else { throw WireError(.notFound, "no such route") }
        return owner
    }

    /// Sends `new_waypoints` to the online devices of everyone allowed to follow `ownerID`, except those who blocked the
    /// owner (or whom the owner blocked): anyone may make anyone a follower, and a blocked person must not reach the
    /// blocker this way (found by an outside probe).
    static func notifyFollowers(of ownerID: Int64, _ context: ServerContext, _ news: ServerEvent.NewWaypoints) async throws(WireError) {
        let (followers, blocks) = try await StoreCall.call(context) { () async throws -> ([Int64], Set<Int64>) in
            (try await context.store.followers(ownerID: ownerID).map(\.accountID), try await context.store.blockPartners(of: ownerID))
        }
        let reachable = followers.filter { !blocks.contains($0) }
        let online = await context.presence.online(reachable)
        for follower in reachable where online.contains(follower) {
            context.notifications.notify(accountID: follower, .newWaypoints(news))
        }
    }

    static func wire(_ route: RouteRecord) -> API.Route {
        API.Route(routeID: route.id, ownerID: route.ownerID, active: route.active, startedAt: route.startedAt, endedAt: route.endedAt,
                  waypointCount: route.waypointCount)
    }
}
