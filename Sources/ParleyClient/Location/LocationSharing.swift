import Foundation
import Logging
import ParleyClientFormats
import ParleyLocation
import ParleyWire

/// Sharing this account's position (docs/CLIENT.md §11): routes of v2 waypoints sealed on this device
/// under the account's location key, followers allowed at the server and handed the key end-to-end, and
/// a new key for everyone left whenever a follower is revoked.
public struct LocationSharing: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasRandom & HasClock & HasEvents & Sendable
    let dependencies: any Dependencies

    /// Most waypoints per `post_waypoints` (the server's limit).
    static let batchSize = API.PostWaypoints.maximumBatch

    private static let logger = Logger(label: "parley.client")
    private var server: any ServerCalling { dependencies.server }
    private var account: any AccountCalling { dependencies.account }
    private var keys: LocationKeys { LocationKeys(dependencies: dependencies) }

    /// Starts a new route; the server deactivates any other active route of this account.
    public func startRoute() async throws(ClientError) -> LocationRoute {
        let answer = try await server.call(API.StartRoute.self)
        let me = try await account.confirmedAccountID()
        return LocationRoute(API.Route(routeID: answer.routeID, ownerID: me, active: true, startedAt: answer.startedAt, waypointCount: 0))
    }

    /// Seals and posts waypoints, in batches, to `routeID` or else to this account's active route (a new
    /// one when none is active). Every waypoint is checked before anything is sent.
    public func post(_ waypoints: [Waypoint], to routeID: Int64? = nil) async throws(ClientError) -> LocationPostResult {
        guard !waypoints.isEmpty else { throw .invalidInput("no positions to post") }
        for (index, waypoint) in waypoints.enumerated() {
            do { try waypoint.validate() } catch { throw .invalidInput("position \(index + 1): \(error)") }
        }
        let me = try await account.confirmedAccountID()
        let route: Int64
        if let routeID {
            route = routeID
        } else if let active = try await activeLocationRouteID() {
            route = active
        } else {
            route = try await startRoute().id
        }
        let (key, epoch) = try keys.own()
        var stored = 0, duplicates = 0
        var start = 0
        while start < waypoints.count {
            let batch = waypoints[start..<min(start + Self.batchSize, waypoints.count)]
            var entries: [API.NewWaypoint] = []
            for waypoint in batch {
                let data: String
                do {
                    data = try WaypointV2.seal(waypoint, owner: UInt64(me), routeID: UInt64(route), key: key)
                } catch {
                    throw .invalidInput("cannot seal a position: \(error)")
                }
                entries.append(API.NewWaypoint(ts: waypoint.timestamp, data: data))
            }
            let answer = try await routeCall(API.PostWaypoints.self, .init(routeID: route, waypoints: entries), routeID: route)
            stored += Int(answer.stored)
            duplicates += Int(answer.duplicates)
            start += batch.count
        }
        return LocationPostResult(routeID: route, stored: stored, duplicates: duplicates, keyEpoch: epoch)
    }

    /// Ends a route: nothing more can be posted to it; followers can still read it.
    public func deactivateRoute(_ routeID: Int64) async throws(ClientError) {
        _ = try await routeCall(API.DeactivateRoute.self, .init(routeID: routeID), routeID: routeID)
    }

    /// Deletes a route and its waypoints at the server.
    public func deleteRoute(_ routeID: Int64) async throws(ClientError) {
        _ = try await routeCall(API.DeleteRoute.self, .init(routeID: routeID), routeID: routeID)
    }

    /// Routes of this account (or of someone it follows), newest first.
    public func routes(of ownerID: Int64? = nil, before routeID: Int64? = nil, limit: Int = 100) async throws(ClientError) -> LocationRouteList {
        guard (1...500).contains(limit) else { throw .invalidInput("limit must be 1…500") }
        let answer: API.ListRoutes.Response
        do {
            answer = try await server.call(API.ListRoutes.self, .init(ownerID: ownerID, beforeRouteID: routeID, limit: Int64(limit)))
        } catch .server(let error) where error.code == .notFound {
            throw try await LocationFollowing(dependencies: dependencies).notFollowing(ownerID ?? 0)
        }
        return LocationRouteList(routes: answer.routes.map(LocationRoute.init), hasMore: answer.hasMore)
    }

    /// Lets the account with `email` read this account's routes and sends it the current key inside an
    /// end-to-end message (`location_key`, docs/CLIENT.md §11). Sharing again re-sends the key.
    public func share(with email: String) async throws(ClientError) -> LocationShareResult {
        guard email.lowercased() != dependencies.email else { throw .invalidInput("\(email) is your own account; you always see your own routes") }
        let follower: Int64
        do {
            follower = try await server.call(API.AllowFollower.self, .email(email.lowercased())).accountID
        } catch .server(let error) where error.code == .notFound {
            throw .invalidInput("no Parley account \(email) on this server; check the address")
        }
        let (key, epoch) = try keys.own()
        let conversation = try await ConversationBook(dependencies: dependencies).start(with: email)
        try await sendKey(key, epoch: epoch, to: conversation.id)
        return LocationShareResult(accountID: follower, keyEpoch: epoch, keySentTo: [follower], keyNotSentTo: [])
    }

    /// Stops the account with `email` from reading this account's routes, makes a new key and sends it to
    /// every remaining follower; waypoints posted from now on are sealed with it, so the revoked person
    /// cannot decrypt them even from a copy of the ciphertexts.
    public func revoke(from email: String) async throws(ClientError) -> LocationShareResult {
        let follower = try await sharer(email)
        let followers = try await followers()
        guard followers.contains(follower) else { throw .invalidInput("\(email) does not follow your location; nothing changed") }
        // The new key is in force before the server is asked: whatever happens next, nothing posted from
        // now on is sealed with a key the revoked person holds (at worst the others need 'share' again).
        let (key, epoch) = try keys.rotateOwn()
        _ = try await server.call(API.RevokeFollower.self, .init(accountID: follower))
        var sent: [Int64] = [], notSent: [Int64] = []
        for other in followers where other != follower {
            do {
                guard let conversation = try await ConversationBook(dependencies: dependencies).direct(with: other) else { notSent.append(other); continue }
                try await sendKey(key, epoch: epoch, to: conversation)
                sent.append(other)
            } catch .notConnected, .disconnected {
                throw .disconnected   // the rest did not get the new key: revoking again is not possible, sharing again is
            } catch {
                Self.logger.warning("could not send the new location key to a follower", metadata: ["account": "\(other)", "error": "\(error)"])
                notSent.append(other)
            }
        }
        return LocationShareResult(accountID: follower, keyEpoch: epoch, keySentTo: sent, keyNotSentTo: notSent)
    }

    /// Accounts allowed to read this account's routes.
    public func followers() async throws(ClientError) -> [Int64] {
        try await server.call(API.ListFollowers.self).followers.map(\.accountID)
    }

    /// Accounts whose routes this account may read.
    public func sharers() async throws(ClientError) -> [Int64] {
        try await server.call(API.ListFollowing.self).ownerIDs
    }

    /// The account id of a contact by e-mail (asked of the server when this device does not know them).
    public func sharer(_ email: String) async throws(ClientError) -> Int64 {
        do {
            return try await account.resolveContact(email)
        } catch .server(let error) where error.code == .notFound {
            // Worded as for someone who shares nothing with you: following tells no one who has an account.
            throw .invalidInput("\(email) does not share their location with you (or has no account on this server); "
                + "check the address, or ask them to run 'parley location share \(dependencies.email)'")
        }
    }

    /// Sends one `location_key` message to a conversation (delivered now, never queued: a key for a
    /// follower must not wait in the outbox after the server already allowed them).
    private func sendKey(_ key: LocationKey, epoch: Int64, to conversationID: Int64) async throws(ClientError) {
        var content = MessageContent(id: dependencies.random.clientMessageID(), type: LocationKeyContent.type)
        content.location = LocationKeyContent(key: key, epoch: epoch)
        try await account.deliverNow(content, kind: LocationKeyContent.type, to: conversationID)
    }

    /// This account's newest route when it is still active.
    private func activeLocationRouteID() async throws(ClientError) -> Int64? {
        let newest = try await routes(limit: 1).routes.first
        return newest?.active == true ? newest?.id : nil
    }

    /// A route method of the owner, with the server's refusals said in the owner's terms.
    private func routeCall<M: APIMethod>(_ method: M.Type, _ request: M.Request, routeID: Int64) async throws(ClientError) -> M.Response {
        do {
            return try await server.call(method, request)
        } catch .server(let error) where error.code == .notFound {
            throw .invalidInput("you have no route \(routeID); list yours with 'parley location routes'")
        } catch .server(let error) where error.code == .conflict {
            throw .invalidInput("route \(routeID) has ended; post without --route to start a new one")
        }
    }
}
