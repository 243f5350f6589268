import ParleyWire

/// Location sharing (docs/API.md §12): routes of client-encrypted waypoints, readable only by the
/// followers their owner allowed. The server never sees a position, only counts and timestamps.
enum LocationHandlers {
    /// Most waypoints per `post_waypoints`.
    static let maximumBatch = 500
    /// Longest encrypted waypoint string (bytes); a v2 waypoint needs about 150.
    static let maximumWaypointBytes = 1024
    /// Most waypoints one route holds (about four days of one fix every 4 s).
    static let maximumWaypointsPerRoute: Int64 = 100_000
    /// Largest timestamp: JSON numbers are exact below 2^53.
    static let maximumTimestamp: Int64 = (1 << 53) - 1

    static func register(in router: inout RequestRouter) {
        router.add("start_route", requiresLogin: true) { _, environment, context throws(WireError) in
            let caller = environment.caller!
            let route = try await StoreCall.call(context) { try await context.store.startRoute(ownerID: caller.accountID, now: context.clock.now()) }
            return HandlerResult(["route_id": .number(Double(route.id)), "started_at": .number(Double(route.startedAt))])
        }
        router.add("post_waypoints", requiresLogin: true) { request, environment, context throws(WireError) in
            try await postWaypoints(request, environment.caller!, context)
        }
        router.add("deactivate_route", requiresLogin: true) { request, environment, context throws(WireError) in
            let route = try await ownRoute(request, environment.caller!, context)
            try await StoreCall.call(context) { try await context.store.deactivateRoute(id: route.id, now: context.clock.now()) }
            return HandlerResult()
        }
        router.add("delete_route", requiresLogin: true) { request, environment, context throws(WireError) in
            let route = try await ownRoute(request, environment.caller!, context)
            try await StoreCall.call(context) { try await context.store.deleteRoute(id: route.id) }
            return HandlerResult()
        }
        router.add("list_routes", requiresLogin: true) { request, environment, context throws(WireError) in
            let owner = try await readableOwner(request, environment.caller!, context)
            let before = try request.optionalInteger("before_route_id", in: 1...Int64.max)
            let limit = Int(try request.optionalInteger("limit", in: 1...500) ?? 100)
            let routes = try await StoreCall.call(context) { try await context.store.routes(ownerID: owner, beforeID: before, limit: limit + 1) }
            return HandlerResult([
                "owner_id": .number(Double(owner)), "routes": .array(routes.prefix(limit).map(json)), "has_more": .bool(routes.count > limit),
            ])
        }
        router.add("get_route", requiresLogin: true) { request, environment, context throws(WireError) in
            try await getRoute(request, environment.caller!, context)
        }
        LocationFollowerHandlers.register(in: &router)
    }

    static func postWaypoints(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let route = try await ownRoute(request, caller, context)
        let items = try request.array("waypoints", maxCount: maximumBatch)
        guard !items.isEmpty else { throw .invalid("waypoints", "must not be empty") }
        var batch: [NewWaypoint] = []
        batch.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else { throw .invalid("waypoints[\(index)]", "must be an object {ts, data}") }
            let entry = WireRequest(method: "", requestID: "", fields: fields)
            let ts: Int64
            let data: String
            do {
                ts = try entry.integer("ts", in: 0...maximumTimestamp)
                data = try entry.string("data", maxBytes: maximumWaypointBytes)
            } catch {
                throw WireError(error.code, "waypoints[\(index)]: \(error.message)")
            }
            guard !data.isEmpty else { throw .invalid("waypoints[\(index)].data", "must not be empty") }
            batch.append(NewWaypoint(timestamp: ts, data: data))
        }
        let stored: [WaypointRecord]
        do {
            stored = try await context.store.appendWaypoints(
                routeID: route.id, batch, limit: maximumWaypointsPerRoute, now: context.clock.now())
        } catch StoreError.conflict("route waypoint limit") {
            throw WireError(.quotaExceeded, "a route holds at most \(maximumWaypointsPerRoute) waypoints; start a new route")
        } catch StoreError.conflict {
            throw WireError(.conflict, "the route is no longer active; start a new route")
        } catch {
            throw AuthHandlers.storeFailure(error, context)
        }
        if let last = stored.last {
            try await notifyFollowers(of: caller.accountID, context, fields: [
                "owner_id": .number(Double(caller.accountID)), "route_id": .number(Double(route.id)),
                "count": .number(Double(stored.count)), "last_waypoint_id": .number(Double(last.id)),
            ])
        }
        return HandlerResult([
            "stored": .number(Double(stored.count)), "duplicates": .number(Double(batch.count - stored.count)),
            "last_waypoint_id": stored.last.map { .number(Double($0.id)) } ?? .null,
        ])
    }

    static func getRoute(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let owner = try await readableOwner(request, caller, context)
        let routeID = try request.optionalInteger("route_id", in: 1...Int64.max)
        let afterID = try request.optionalInteger("after_waypoint_id") ?? 0
        let limit = Int(try request.optionalInteger("limit", in: 1...Int64(maximumBatch)) ?? Int64(maximumBatch))
        let route = try await StoreCall.call(context) { () async throws -> RouteRecord? in
            if let routeID { return try await context.store.route(id: routeID) }
            return try await context.store.latestRoute(ownerID: owner)
        }
        guard let route, route.ownerID == owner else { throw WireError(.notFound, "no such route") }
        let page = try await StoreCall.call(context) { try await context.store.waypoints(routeID: route.id, afterID: afterID, limit: limit + 1) }
        var fields = routeFields(route)
        fields["waypoints"] = .array(page.prefix(limit).map { waypoint in
            .object(["waypoint_id": .number(Double(waypoint.id)), "ts": .number(Double(waypoint.timestamp)), "data": .string(waypoint.data)])
        })
        fields["has_more"] = .bool(page.count > limit)
        return HandlerResult(fields)
    }

    /// A route of the caller's own; anyone else's route does not exist for them, not even for followers.
    static func ownRoute(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> RouteRecord {
        let id = try request.integer("route_id", in: 1...Int64.max)
        let route = try await StoreCall.call(context) { try await context.store.route(id: id) }
        guard let route, route.ownerID == caller.accountID else { throw WireError(.notFound, "no such route") }
        return route
    }

    /// `owner_id` (default: the caller) if the caller may read that person's routes; `not_found` otherwise,
    /// exactly as for an account that does not exist.
    static func readableOwner(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64 {
        let owner = try request.optionalInteger("owner_id", in: 1...Int64.max) ?? caller.accountID
        guard owner != caller.accountID else { return owner }
        let allowed = try await StoreCall.call(context) { try await context.store.isFollower(ownerID: owner, followerID: caller.accountID) }
        guard allowed else { throw WireError(.notFound, "no such route") }
        return owner
    }

    /// Sends `new_waypoints` to the online devices of everyone allowed to follow `ownerID`.
    static func notifyFollowers(of ownerID: Int64, _ context: ServerContext, fields: [String: JSONValue]) async throws(WireError) {
        let followers = try await StoreCall.call(context) { try await context.store.followers(ownerID: ownerID) }
        let online = await context.presence.online(followers.map(\.accountID))
        for follower in followers where online.contains(follower.accountID) {
            context.notifications.notify(accountID: follower.accountID, event: "new_waypoints", fields: fields)
        }
    }

    static func routeFields(_ route: RouteRecord) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "route_id": .number(Double(route.id)), "owner_id": .number(Double(route.ownerID)), "active": .bool(route.active),
            "started_at": .number(Double(route.startedAt)), "waypoint_count": .number(Double(route.waypointCount)),
        ]
        if let ended = route.endedAt { fields["ended_at"] = .number(Double(ended)) }
        return fields
    }

    static func json(_ route: RouteRecord) -> JSONValue { .object(routeFields(route)) }
}
