import Foundation
import ParleyClient
import ParleyLocation
import ParleyLocationFeeds
import ParleyTerminal

/// Posting positions to the tracker server of this account's tracker key (`post`/`replay --bpt`), through
/// ParleyLocationFeeds' `BPTPoster`, on the route the vault remembers (a new one, remembered, when there is none).
struct BPTPosting {
    private let client: ParleyClient
    private let own: BPTOwnKey
    private let options: ClientOptions
    private var poster: BPTPoster

    /// Opens the account and its tracker key.
    init(options: ClientOptions, bpt: BPTPostOptions) throws {
        client = try options.open()
        own = try options.bptOwnKey(client)
        self.options = options
        poster = BPTPoster(tracker: try BPTClient(server: own.server, timeout: bpt.timeout.seconds), key: own.key, userID: own.userID,
                           routeID: bpt.newRoute ? nil : own.routeID, retiring: bpt.newRoute ? own.routeID : nil)
    }

    /// Seals every waypoint (all checked before anything is sent), posts them in batches, and says where they went.
    mutating func post(_ waypoints: [Waypoint]) async throws {
        let (client, own) = (client, own)
        let posted = try await poster.post(waypoints, started: { route in
            do { try client.tracker.setRoute(route, userID: own.userID) } catch { throw CommandFailure("\(error)") }
        }, note: ProgressLine.write)
        options.output(["route_id": posted.routeID, "user_id": own.userID, "stored": String(posted.stored)]) {
            let what = waypoints.count == 1 ? "position \(LocationText.line(waypoints[0]))" : "\(posted.stored) positions"
            return "Posted \(what) to tracker route \(posted.routeID) on \(own.server); only holders of your bpt:// link can decrypt it."
        }
    }

    /// Posts each fix from gpsd as it arrives, until `count` fixes or gpsd closes.
    mutating func postLive(from connection: GPSDConnection, count: Int?) async throws {
        try await connection.forEachNewFix(count: count) { try await post([$0]) }
    }
}
