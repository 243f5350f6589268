import Foundation
import ParleyLocation

/// Location sharing and following (docs/CLIENT.md §11) are the components `location`, `following` and `tracker`;
/// the live stream of updates is the client's, as it follows the account's events.
extension ParleyClient {
    /// Most waypoints per `post_waypoints` (the server's limit).
    public static let locationBatchSize = LocationSharing.batchSize

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
                guard last > after, let page = try? await self.following.routeAll(of: owner, routeID: route, after: after, maximum: 5_000)
                else { continue }
                if let newest = page.points.last { cursors[route] = newest.waypointID }
                if !page.points.isEmpty { continuation.yield(LocationUpdate(ownerID: owner, routeID: route, points: page.points)) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
