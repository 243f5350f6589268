import Foundation
import ParleyLocation

/// Location sharing and following (docs/CLIENT.md §11), carried out by the `LocationSharing`, `LocationFollowing`,
/// `LocationKeys` and `TrackerKeys` components; the client keeps the names its callers use.
extension ParleyClient {
    /// Most waypoints per `post_waypoints` (the server's limit).
    public static let locationBatchSize = LocationSharing.batchSize

    /// Starts a new route; the server deactivates any other active route of this account.
    public func startLocationRoute() async throws(ClientError) -> LocationRoute {
        try await sharing.startLocationRoute()
    }

    /// Seals and posts waypoints, in batches, to `routeID` or else to this account's active route (a new
    /// one when none is active). Every waypoint is checked before anything is sent.
    public func postLocation(_ waypoints: [Waypoint], to routeID: Int64? = nil) async throws(ClientError) -> LocationPostResult {
        try await sharing.postLocation(waypoints, to: routeID)
    }

    /// Ends a route: nothing more can be posted to it; followers can still read it.
    public func deactivateLocationRoute(_ routeID: Int64) async throws(ClientError) {
        try await sharing.deactivateLocationRoute(routeID)
    }

    /// Deletes a route and its waypoints at the server.
    public func deleteLocationRoute(_ routeID: Int64) async throws(ClientError) {
        try await sharing.deleteLocationRoute(routeID)
    }

    /// Routes of this account (or of someone it follows), newest first.
    public func locationRoutes(of ownerID: Int64? = nil, before routeID: Int64? = nil, limit: Int = 100) async throws(ClientError) -> LocationRouteList {
        try await sharing.locationRoutes(of: ownerID, before: routeID, limit: limit)
    }

    /// Lets the account with `email` read this account's routes and sends it the current key inside an
    /// end-to-end message (`location_key`). Sharing again re-sends the key.
    public func shareLocation(with email: String) async throws(ClientError) -> LocationShareResult {
        try await sharing.shareLocation(with: email)
    }

    /// Stops the account with `email` from reading this account's routes, makes a new key and sends it to
    /// every remaining follower, so the revoked person cannot decrypt what is posted from now on.
    public func revokeLocation(from email: String) async throws(ClientError) -> LocationShareResult {
        let result = try await sharing.revokeLocation(from: email)
        if !result.keyNotSentTo.isEmpty {
            logger.warning("the new location key did not reach every follower", metadata: ["accounts": "\(result.keyNotSentTo)"])
        }
        return result
    }

    /// Accounts allowed to read this account's routes.
    public func locationFollowers() async throws(ClientError) -> [Int64] {
        try await sharing.locationFollowers()
    }

    /// Accounts whose routes this account may read.
    public func locationFollowing() async throws(ClientError) -> [Int64] {
        try await sharing.locationFollowing()
    }

    /// The account id of a contact by e-mail (asked of the server when this device does not know them).
    public func locationSharer(_ email: String) async throws(ClientError) -> Int64 {
        try await sharing.locationSharer(email)
    }

    /// A page of a route of `ownerID` (default: this account): the newest route unless `routeID` is given,
    /// waypoints after `afterWaypointID`, each decrypted with the keys held for that person.
    public func locationRoute(of ownerID: Int64? = nil, routeID: Int64? = nil, after afterWaypointID: Int64 = 0,
                              limit: Int = 500) async throws(ClientError) -> LocationRoutePage {
        try await following.locationRoute(of: ownerID, routeID: routeID, after: afterWaypointID, limit: limit)
    }

    /// Every waypoint of a route after `afterWaypointID`, paging until the end (at most `maximum`).
    public func locationRouteAll(of ownerID: Int64? = nil, routeID: Int64? = nil, after afterWaypointID: Int64 = 0,
                                 maximum: Int = 100_000) async throws(ClientError) -> LocationRoutePage {
        try await following.locationRouteAll(of: ownerID, routeID: routeID, after: afterWaypointID, maximum: maximum)
    }

    /// New waypoints of the people this account follows (or only of `ownerID`), decrypted, as the server
    /// announces them. Ends when the subscriber stops iterating. Needs a connection to receive anything.
    public nonisolated func locationUpdates(from ownerID: Int64? = nil) -> AsyncStream<LocationUpdate> {
        let events = events()
        let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let task = Task { [weak self] in
            var cursors: [Int64: Int64] = [:]   // route id → last waypoint id yielded
            for await event in events {
                guard case .server(.newWaypoints(let news)) = event, let self, ownerID == nil || news.ownerID == ownerID else { continue }
                let (owner, route, last, count) = (news.ownerID, news.routeID, news.lastWaypointID, news.count)
                // A batch's ids are consecutive, so a route seen for the first time starts just before it.
                let after = cursors[route] ?? max(0, last - max(1, count))
                guard last > after, let page = try? await self.locationRouteAll(of: owner, routeID: route, after: after, maximum: 5_000)
                else { continue }
                if let newest = page.points.last { cursors[route] = newest.waypointID }
                if !page.points.isEmpty { continuation.yield(LocationUpdate(ownerID: owner, routeID: route, points: page.points)) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Stores the key of a `parley://location` link for its owner (a link hands over a key without a
    /// message; the owner must still allow this account at the server). Returns the owner's account id.
    @discardableResult
    public func rememberLocationLink(_ text: String) throws(ClientError) -> Int64 {
        try locationKeys.remember(link: text, me: keys.accountID)
    }

    /// How many location keys this device holds for `ownerID` (this account's own when nil), and the newest epoch.
    public func locationKeyEpochs(of ownerID: Int64? = nil) throws(ClientError) -> [Int64] {
        let me = try identity().accountID
        let owner = ownerID ?? me
        return try locationKeys.ring(owner == me ? LocationKeyRing.ownRecord : LocationKeyRing.record(for: owner)).entries.map(\.epoch)
    }

    /// The stored Berry Picker Tracker identity, nil when none was made.
    public nonisolated func bptOwnKey() throws(ClientError) -> BPTOwnKey? { try trackerKeys.bptOwnKey() }

    /// Makes and stores a fresh tracker key for the tracker user `userID` on `server` (see `TrackerKeys`).
    @discardableResult
    public nonisolated func storeNewBPTKey(userID: String, server: String, name: String?, replacing: String?) throws(ClientError) -> BPTOwnKey {
        try trackerKeys.storeNewBPTKey(userID: userID, server: server, name: name, replacing: replacing)
    }

    /// Remembers the route positions go to (nil: start a new one next time), if `userID` is still the stored identity.
    public nonisolated func setBPTRoute(_ routeID: String?, userID: String) throws(ClientError) {
        try trackerKeys.setBPTRoute(routeID, userID: userID)
    }

    /// Forgets the tracker identity; false when there was none.
    @discardableResult
    public nonisolated func forgetBPTKey() throws(ClientError) -> Bool { try trackerKeys.forgetBPTKey() }

    /// Stores a `bpt://` link's key, user id and name, replacing an earlier link for the same user.
    @discardableResult
    public nonisolated func rememberBPTLink(_ text: String) throws(ClientError) -> BPTShareLink { try trackerKeys.rememberBPTLink(text) }

    /// Every remembered tracker link, sorted by user id.
    public nonisolated func bptLinks() throws(ClientError) -> [BPTShareLink] { try trackerKeys.bptLinks() }
}
