import Foundation
import ParleyClient
import ParleyLocation
import ParleyLocationFeeds

/// Posting positions to the tracker server of this account's tracker key (`post`/`replay --bpt`),
/// sealed as the app seals them, on the route the vault remembers (a new one when there is none).
struct BPTPosting {
    private let client: ParleyClient
    private let own: BPTOwnKey
    private let tracker: BPTClient
    private let options: ClientOptions
    private var routeID: String?
    /// The route to end before the first post, with --new-route.
    private var retiring: String?

    /// Opens the account and its tracker key.
    init(options: ClientOptions, bpt: BPTPostOptions) throws {
        client = try options.open()
        own = try options.bptOwnKey(client)
        tracker = try BPTClient(server: own.server, timeout: bpt.timeout.seconds)
        self.options = options
        routeID = bpt.newRoute ? nil : own.routeID
        if bpt.newRoute, let old = own.routeID { retiring = old }
    }

    /// Seals every waypoint (all checked before anything is sent) and posts them in batches.
    mutating func post(_ waypoints: [Waypoint]) async throws {
        var sealed: [LegacyWaypoint] = []
        for (index, waypoint) in waypoints.enumerated() {
            do {
                sealed.append(try LegacyWaypoint.seal(waypoint, key: own.key))
            } catch {
                throw CommandFailure(waypoints.count == 1 ? "\(error)" : "position \(index + 1): \(error)")
            }
        }
        let remembered = routeID != nil
        let route = try await currentRoute()
        var stored = 0
        while stored < sealed.count {
            let batch = Array(sealed[stored..<min(stored + BPTRequestBody.batchSize, sealed.count)])
            do {
                try await tracker.postWaypoints(BPTRequestBody.waypoints(batch, routeID: route), count: batch.count)
            } catch {
                guard stored == 0 else { throw CommandFailure("\(error) (\(stored) of \(sealed.count) positions were stored before)") }
                // A route the vault remembers may be gone from the server (its data was reset): say how to go on.
                throw CommandFailure(remembered ? "\(error); if it keeps failing, the server may have lost route \(route): add --new-route" : "\(error)")
            }
            stored += batch.count
        }
        options.output(["route_id": route, "user_id": own.userID, "stored": String(stored)]) {
            let what = waypoints.count == 1 ? "position \(LocationText.line(waypoints[0]))" : "\(stored) positions"
            return "Posted \(what) to tracker route \(route) on \(own.server); only holders of your bpt:// link can decrypt it."
        }
    }

    /// The route to post to: the remembered one, else a new one started now (and remembered).
    private mutating func currentRoute() async throws -> String {
        if let routeID { return routeID }
        if let retiring {
            // As the app does when tracking stops; a failure here must not lose the positions.
            do { try await tracker.deactivateRoute(retiring) } catch { ProgressLine.write("the previous tracker route was not ended: \(error)") }
            self.retiring = nil
        }
        let route = try await tracker.startRoute(userID: own.userID)
        do { try client.tracker.setRoute(route, userID: own.userID) } catch { throw CommandFailure("\(error)") }
        routeID = route
        ProgressLine.write("started tracker route \(route)")
        return route
    }

    /// Posts each fix from gpsd as it arrives, until `count` fixes or gpsd closes.
    mutating func postLive(from connection: GPSDConnection, count: Int?) async throws {
        var posted = 0
        var lastTimestamp: Int64 = -1
        while count.map({ posted < $0 }) ?? true, let waypoint = try await connection.nextFix() {
            guard waypoint.timestamp != lastTimestamp else { continue }   // gpsd repeats fixes
            lastTimestamp = waypoint.timestamp
            try await post([waypoint])
            posted += 1
        }
    }
}
