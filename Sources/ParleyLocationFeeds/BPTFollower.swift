import ParleyLocation

/// Following a Berry Picker Tracker user as `parley location follow` does with a bpt:// link: each poll reads
/// the latest route, decrypts it with the link's key and tells what is new since the last poll — a new route
/// starts over.
public struct BPTFollower {
    /// A tracker route: its id and whether it is still being recorded.
    public struct Route: Sendable, Equatable {
        /// The route's id on the tracker's server.
        public var id: String
        /// Whether the route is still being recorded.
        public var active: Bool

        /// The route `id`, `active` or ended.
        public init(id: String, active: Bool) {
            self.id = id
            self.active = active
        }
    }

    /// What one poll found.
    public struct Update: Sendable, Equatable {
        /// The route, when it is not the one the previous poll saw.
        public var newRoute: Route?
        /// The positions not reported before, in order.
        public var fresh: [GPXTrack.Point]
        /// Every position of the route so far (for a GPX file).
        public var all: [GPXTrack.Point]
        /// How many waypoints did not decrypt with the link's key.
        public var undecryptable: Int
    }

    private let key: LegacyKey
    private let latest: () async throws -> BPTRoute
    private var routeID: String?
    private var shown = 0

    /// Follows through `latest` (the tracker's latest route of the user), decrypting with `key`.
    public init(key: LegacyKey, latest: @escaping () async throws -> BPTRoute) {
        self.key = key
        self.latest = latest
    }

    /// Follows the user of `share` on `client`'s server.
    public init(share: BPTShareLink, client: BPTClient) {
        self.init(key: share.key) { try await client.latestRoute(userID: share.userID) }
    }

    /// Reads the latest route once.
    public mutating func poll() async throws -> Update {
        let route = try await latest()
        let (points, failed) = route.decrypt(with: key)
        var newRoute: Route?
        if route.routeID != routeID {
            newRoute = Route(id: route.routeID, active: route.active)
            routeID = route.routeID
            shown = 0
        }
        let fresh = Array(points.dropFirst(shown))
        shown = max(shown, points.count)
        return Update(newRoute: newRoute, fresh: fresh, all: points, undecryptable: failed)
    }
}

extension BPTFollower {
    /// Which of the `remembered` links to follow: the one whose user id or name is `name`, or the only one when
    /// no name is given. None, or several, is refused with the list to choose from.
    public static func remembered(_ remembered: [BPTShareLink], named name: String?) throws(LocationFeedError) -> BPTShareLink {
        let matching = name.map { name in remembered.filter { $0.userID == name || $0.username == name } } ?? remembered
        guard matching.count == 1, let share = matching.first else {
            if remembered.isEmpty {
                throw LocationFeedError("this account remembers no bpt:// link yet: follow one once with --link-file PATH, --link-file - or PARLEY_LOCATION_LINK")
            }
            let list = remembered.map { share in share.username.map { "\($0) (user id \(share.userID))" } ?? "user id \(share.userID)" }
                .joined(separator: ", ")
            throw LocationFeedError(name == nil
                ? "this account remembers several bpt:// links; name one: \(list)"
                : "this account remembers no bpt:// link for that name; it has: \(list)")
        }
        return share
    }
}
