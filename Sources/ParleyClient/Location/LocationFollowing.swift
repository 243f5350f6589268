import Foundation
import ParleyLocation
import ParleyWire

/// Following (docs/CLIENT.md §11): reading a sharer's routes and opening each waypoint with the keys this
/// device holds for them, and a live stream of new waypoints from the server's `new_waypoints` notification.
public struct LocationFollowing: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasRandom & HasClock & HasEvents & Sendable
    let dependencies: any Dependencies

    private var server: any ServerCalling { dependencies.server }
    private var account: any AccountCalling { dependencies.account }
    private var keys: LocationKeys { LocationKeys(dependencies: dependencies) }

    /// A page of a route of `ownerID` (default: this account): the newest route unless `routeID` is given,
    /// waypoints after `afterWaypointID`, each decrypted with the keys held for that person.
    public func route(of ownerID: Int64? = nil, routeID: Int64? = nil, after afterWaypointID: Int64 = 0,
                              limit: Int = 500) async throws(ClientError) -> LocationRoutePage {
        guard (1...500).contains(limit) else { throw .invalidInput("limit must be 1…500") }
        guard afterWaypointID >= 0 else { throw .invalidInput("the waypoint cursor must be 0 or more") }
        let me = try await account.confirmedAccountID()
        let owner = ownerID ?? me
        let answer: API.GetRoute.Response
        do {
            answer = try await server.call(API.GetRoute.self, .init(ownerID: owner, routeID: routeID, afterWaypointID: afterWaypointID, limit: Int64(limit)))
        } catch .server(let error) where error.code == .notFound {
            if owner == me {
                throw .invalidInput(routeID.map { "you have no route \($0); list yours with 'parley location routes'" }
                    ?? "you have no route yet; post a position first")
            }
            if let routeID, try await isFollowing(owner) {
                throw .invalidInput("\(try await account.contactName(owner)) has no route \(routeID); list theirs with 'parley location routes \(try await account.contactName(owner))'")
            }
            throw try await notFollowing(owner)
        }
        let route = LocationRoute(answer.route)
        guard route.ownerID == owner, routeID == nil || route.id == routeID else {
            throw .badResponse("get_route answered with another person's or another route")
        }
        let ring = try keys.ring(owner == me ? LocationKeyRing.ownRecord : LocationKeyRing.record(for: owner))
        let points = answer.waypoints.map { item in
            let opened = Self.openWaypoint(item.data, owner: owner, routeID: route.id, timestamp: item.ts, ring: ring)
            return LocationPoint(waypointID: item.waypointID, timestamp: item.ts, waypoint: opened.waypoint, problem: opened.problem)
        }
        return LocationRoutePage(route: route, points: points, hasMore: answer.hasMore)
    }

    /// Every waypoint of a route after `afterWaypointID`, paging until the end (at most `maximum`).
    public func routeAll(of ownerID: Int64? = nil, routeID: Int64? = nil, after afterWaypointID: Int64 = 0,
                                 maximum: Int = 100_000) async throws(ClientError) -> LocationRoutePage {
        var page = try await route(of: ownerID, routeID: routeID, after: afterWaypointID)
        var points = page.points
        // Each page must move past the last (the server lists only later waypoints): a server that serves a page
        // again would otherwise fill the list with copies up to `maximum`.
        var after = afterWaypointID
        while page.hasMore, points.count < maximum, let last = points.last, last.waypointID > after {
            after = last.waypointID
            page = try await route(of: ownerID, routeID: page.route.id, after: after)
            points += page.points.filter { $0.waypointID > after }
        }
        return LocationRoutePage(route: page.route, points: Array(points.prefix(maximum)), hasMore: page.hasMore || points.count > maximum)
    }

    /// Stores the key of a `parley://location` link for its owner (a link hands over a key without a
    /// message; the owner must still allow this account at the server). Returns the owner's account id.
    @discardableResult
    public func rememberLink(_ text: String) async throws(ClientError) -> Int64 {
        try keys.remember(link: text, me: try? await account.confirmedAccountID())
    }

    /// The epochs of the location keys this device holds for `ownerID` (this account's own when nil), newest first.
    public func keyEpochs(of ownerID: Int64? = nil) async throws(ClientError) -> [Int64] {
        let me = try await account.confirmedAccountID()
        let owner = ownerID ?? me
        return try keys.ring(owner == me ? LocationKeyRing.ownRecord : LocationKeyRing.record(for: owner)).entries.map(\.epoch)
    }

    /// Opens one stored value with the ring's keys, newest first; the result names the problem otherwise.
    static func openWaypoint(_ data: String, owner: Int64, routeID: Int64, timestamp: Int64,
                             ring: LocationKeyRing) -> (waypoint: Waypoint?, problem: String?) {
        guard data.hasPrefix(WaypointV2.prefix) else {
            return (nil, data.contains(":") ? "an unsupported location format (made by a newer Parley?)"
                : "a legacy (Berry Picker Tracker) value; follow it with its bpt:// link")
        }
        let keys = ring.keys
        guard !keys.isEmpty else { return (nil, "no location key from this person yet; ask them to share again") }
        let binding = WaypointV2.Binding(owner: UInt64(owner), routeID: UInt64(routeID), timestamp: timestamp)
        for key in keys {
            do {
                return (try WaypointV2.open(data, binding: binding, key: key), nil)
            } catch .couldNotDecrypt {
                continue
            } catch {
                return (nil, "\(error)")   // malformed or invalid whatever the key: another key will not help
            }
        }
        return (nil, "none of the \(keys.count) location key(s) held for this person opens it (sealed after they revoked you, or altered)")
    }

    /// Whether this account may read `owner`'s routes.
    private func isFollowing(_ owner: Int64) async throws(ClientError) -> Bool {
        try await LocationSharing(dependencies: dependencies).sharers().contains(owner)
    }

    /// The error for reading someone who does not (or no longer) share with this account.
    func notFollowing(_ owner: Int64) async throws(ClientError) -> ClientError {
        .invalidInput("\(try await account.contactName(owner)) does not share their location with you (never, or not any more), or has no route yet; "
            + "ask them to run 'parley location share \(dependencies.email)'")
    }

    /// New waypoints of the people this account follows (or only of `ownerID`), decrypted, as the server
    /// announces them. Ends when the subscriber stops iterating. Needs a connection to receive anything.
    public func updates(from ownerID: Int64? = nil) -> AsyncStream<LocationUpdate> {
        let events = dependencies.events.subscribe()
        let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let task = Task {
            var cursors: [Int64: Int64] = [:]   // route id → last waypoint id yielded
            for await event in events {
                guard case .server(.newWaypoints(let news)) = event, ownerID == nil || news.ownerID == ownerID else { continue }
                let (owner, route, last, count) = (news.ownerID, news.routeID, news.lastWaypointID, news.count)
                // A batch's ids are consecutive, so a route seen for the first time starts just before it.
                let after = cursors[route] ?? max(0, last - max(1, count))
                guard last > after, let page = try? await routeAll(of: owner, routeID: route, after: after, maximum: 5_000) else { continue }
                if let newest = page.points.last { cursors[route] = newest.waypointID }
                if !page.points.isEmpty { continuation.yield(LocationUpdate(ownerID: owner, routeID: route, points: page.points)) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
