import Foundation
import ParleyLocation
import ParleyLocationFeeds
import Testing

/// The feed logic `parley location` runs, without a network: gpsd's repeated fixes, what a tracker poll
/// reports as new, and positions sealed (and refused) before anything is sent.
@Suite struct LocationFeedFlowTests {
    static let key = try! LegacyKey(bytes: [UInt8](repeating: 7, count: 16))

    /// A source handing out `fixes`, then nil.
    final class Source: @unchecked Sendable {
        var fixes: [Waypoint]
        init(_ fixes: [Waypoint]) { self.fixes = fixes }
        func next() -> Waypoint? { fixes.isEmpty ? nil : fixes.removeFirst() }
    }

    static func fix(_ timestamp: Int64) -> Waypoint { Waypoint(latitude: 1, longitude: 2, timestamp: timestamp) }

    @Test func repeatedFixesAreSkippedAndCountStops() async throws {
        let source = Source([1, 1, 2, 2, 2, 3, 1, 4].map(Self.fix))
        var seen: [Int64] = []
        try await GPSDFixes.forEach(count: nil, next: { source.next() }) { seen.append($0.timestamp) }
        #expect(seen == [1, 2, 3, 1, 4])

        let limited = Source([5, 5, 6, 7, 8].map(Self.fix))
        var taken: [Int64] = []
        try await GPSDFixes.forEach(count: 2, next: { limited.next() }) { taken.append($0.timestamp) }
        #expect(taken == [5, 6])
        #expect(limited.fixes.map(\.timestamp) == [7, 8])

        var none = 0
        try await GPSDFixes.forEach(count: 3, next: { nil }) { _ in none += 1 }
        #expect(none == 0)
    }

    @Test func aFailingBodyStopsTheFeed() async throws {
        struct Refused: Error {}
        let source = Source([1, 2, 3].map(Self.fix))
        await #expect(throws: Refused.self) {
            try await GPSDFixes.forEach(count: nil, next: { source.next() }) { if $0.timestamp == 2 { throw Refused() } }
        }
        #expect(source.fixes.map(\.timestamp) == [3])
    }

    /// The tracker's answer for `route` with `count` waypoints sealed with `key`, and `garbage` more that do not decrypt.
    static func route(_ route: String, active: Bool, count: Int, garbage: Int = 0) throws -> BPTRoute {
        var waypoints: [[String: Any]] = []
        for index in 0..<count {
            let sealed = try LegacyWaypoint.seal(Waypoint(latitude: Double(index), longitude: 10, timestamp: 1_000 * Int64(index + 1)), key: key)
            waypoints.append(["latitude": sealed.latitude, "longitude": sealed.longitude, "ts": "\(sealed.timestamp)"])
        }
        for _ in 0..<garbage { waypoints.append(["latitude": "not sealed", "longitude": "%%%", "ts": "x"]) }
        return try BPTRoute(json: try JSONSerialization.data(withJSONObject: [route, active, waypoints]))
    }

    @Test func aPollReportsWhatIsNewAndANewRouteStartsOver() async throws {
        var answers = [try Self.route("r1", active: true, count: 2), try Self.route("r1", active: true, count: 3, garbage: 1),
                       try Self.route("r1", active: true, count: 3), try Self.route("r2", active: false, count: 1)]
        var follower = BPTFollower(key: Self.key) { answers.removeFirst() }
        let first = try await follower.poll()
        #expect(first.newRoute == BPTFollower.Route(id: "r1", active: true))
        #expect(first.fresh.map(\.latitude) == [0, 1])
        let second = try await follower.poll()
        #expect(second.newRoute == nil)
        #expect(second.fresh.map(\.latitude) == [2])
        #expect(second.all.count == 3)
        #expect(second.undecryptable == 1)
        let third = try await follower.poll()
        #expect(third.fresh.isEmpty)
        let fourth = try await follower.poll()
        #expect(fourth.newRoute == BPTFollower.Route(id: "r2", active: false))
        #expect(fourth.fresh.map(\.latitude) == [0])
    }

    @Test func aTrackerAnswerThatIsGarbageIsRefused() throws {
        for body in ["", "{}", "[1,true]", "[\"r\",true,[{\"latitude\":1}]]", String(repeating: "[", count: 100_000)] {
            #expect(throws: LocationError.self) { try BPTRoute(json: Data(body.utf8)) }
        }
    }

    @Test func everyPositionIsSealedBeforeAnythingIsSent() async throws {
        // Nothing listens on port 1: had anything been sent, the error would be the connection's.
        var poster = BPTPoster(tracker: try BPTClient(server: "http://127.0.0.1:1", timeout: 1), key: Self.key, userID: "u", routeID: "r")
        let waypoints = [Self.fix(1), Waypoint(latitude: 200, longitude: 0, timestamp: 2)]
        let error = await #expect(throws: LocationFeedError.self) {
            try await poster.post(waypoints, started: { _ in Issue.record("started a route") }, note: { _ in })
        }
        #expect(error?.description.hasPrefix("position 2: ") == true)
    }
}

/// Which remembered bpt:// link `follow` takes, and the refusals that list the others.
@Suite struct RememberedLinkTests {
    static let key = try! LegacyKey(bytes: [UInt8](repeating: 1, count: 16))

    @Test func aNameOrTheOnlyLinkPicksOne() throws {
        let ann = BPTShareLink(key: Self.key, userID: "11", username: "ann")
        let bob = BPTShareLink(key: Self.key, userID: "22")
        #expect(try BPTFollower.remembered([ann], named: nil).userID == "11")
        #expect(try BPTFollower.remembered([ann, bob], named: "ann").userID == "11")
        #expect(try BPTFollower.remembered([ann, bob], named: "22").userID == "22")
        #expect(throws: LocationFeedError.self) { try BPTFollower.remembered([], named: nil) }
        let several = #expect(throws: LocationFeedError.self) { try BPTFollower.remembered([ann, bob], named: nil) }
        #expect(several?.description == "this account remembers several bpt:// links; name one: ann (user id 11), user id 22")
        let none = #expect(throws: LocationFeedError.self) { try BPTFollower.remembered([ann, bob], named: "\u{1B}[2J" + String(repeating: "x", count: 5_000)) }
        #expect(none?.description.hasPrefix("this account remembers no bpt:// link for that name") == true)
    }
}

/// The tracker side of `bpt-key delete`: the key is forgotten only once the server deleted the user, or with `localOnly`.
@Suite struct BPTKeyFlowTests {
    @Test func aKeyIsKeptWhenTheServerDidNotDeleteTheUser() async throws {
        // Nothing listens on port 1.
        let tracker = try BPTClient(server: "http://127.0.0.1:1", timeout: 1)
        var forgotten = 0
        let error = await #expect(throws: LocationFeedError.self) {
            try await BPTKeyFlows.delete(on: tracker, userID: "u", localOnly: false) { forgotten += 1 }
        }
        #expect(error?.description.hasSuffix("; the key is still kept. To forget it anyway, add --local-only") == true)
        #expect(forgotten == 0)
        try await BPTKeyFlows.delete(on: tracker, userID: "u", localOnly: true) { forgotten += 1 }
        #expect(forgotten == 1)
        var kept = false
        await #expect(throws: (any Error).self) { _ = try await BPTKeyFlows.create(on: tracker) { _ in kept = true } }
        #expect(!kept)
    }
}
