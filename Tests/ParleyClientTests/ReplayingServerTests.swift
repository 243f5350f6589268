import Foundation
import ParleyClient
import ParleyCrypto
import ParleyLocation
import Synchronization
import Testing

/// A server (a real one behind a tampering proxy) that serves the same page again and again, always saying more are
/// waiting: the client takes in what the page holds once and stops asking, instead of asking forever.
@Suite("Client: a server that replays a page")
struct ReplayingServerTests {
    /// Serves the first answer to `method` that listed something under `items` again for every later request of it,
    /// always with `has_more`.
    static func replaying(_ method: String, items: String) -> LoginHoldingProxy.Tamper {
        let replay = Mutex<Data?>(nil)
        return { answered, line in
            guard answered == method, var answer = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                return line
            }
            let id = answer["request_id"]
            if let first = replay.withLock({ $0 }), let again = try? JSONSerialization.jsonObject(with: first) as? [String: Any] {
                answer = again
                answer["request_id"] = id
            } else if (answer[items] as? [Any])?.isEmpty == false {
                replay.withLock { $0 = Data(line) }
            }
            answer["has_more"] = true
            return Array((try? JSONSerialization.data(withJSONObject: answer)) ?? Data(line))
        }
    }

    /// `name@example.org`, registered and confirmed through `proxy`, not connected.
    static func person(_ name: String, through proxy: LoginHoldingProxy, harness: ClientHarness) async throws -> ParleyClient {
        let client = try ParleyClient.create(
            home: harness.home(name), email: "\(name)@example.org", displayName: name.capitalized,
            server: ServerAddress(host: "127.0.0.1", port: proxy.port), pin: nil,
            reconnectPolicy: ReconnectPolicy(initial: 0.2, maximum: 1))
        try await client.registration.register(password: "correct horse \(name)", envelopeIterations: KeyEnvelope.minimumSealIterations)
        try await client.registration.confirm(code: try #require(harness.server.latestCode(for: "\(name)@example.org")))
        return client
    }

    @Test("a page that does not move the cursor ends the catch-up; each message is kept once")
    func replayedPageEndsTheCatchUp() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let proxy = try LoginHoldingProxy(upstream: harness.server.port, hold: .zero, tamper: Self.replaying("get_messages", items: "messages"))
        defer { proxy.stop() }
        let bob = try await Self.person("bob", through: proxy, harness: harness)

        // Bob is away while Ann writes, so his catch-up fetches the three.
        let chat = try await ann.startConversation(with: "bob@example.org").id
        var sent: [Int64] = []
        for index in 0..<3 { sent.append(try #require(try await ann.send("while you were away \(index)", to: chat).message).id) }

        let finished = Mutex(false)
        let connecting = Task {
            try await bob.connect()
            finished.withLock { $0 = true }
        }
        try await eventually("the catch-up ends", seconds: 20) { finished.withLock { $0 } }
        connecting.cancel()
        #expect(proxy.requests("get_messages") <= 3, "asked \(proxy.requests("get_messages")) times")
        for id in sent { #expect(try bob.history.message(id)?.text.hasPrefix("while you were away") == true) }
        #expect(try bob.history.messages(in: chat).count == 3)
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }

    @Test("a replayed page of a route ends the listing; each waypoint is listed once")
    func replayedRoutePageEndsTheListing() async throws {
        let harness = try await ClientHarness.start()
        let proxy = try LoginHoldingProxy(upstream: harness.server.port, hold: .zero, tamper: Self.replaying("get_route", items: "waypoints"))
        defer { proxy.stop() }
        let ann = try await Self.person("ann", through: proxy, harness: harness)
        try await ann.connect()
        let many = (0..<1_201).map { Waypoint(latitude: Double($0 % 80), longitude: 0.5, timestamp: 5_000 + Int64($0), accuracy: 5) }
        #expect(try await ann.location.post(many).stored == 1_201)

        let listed = try await ann.following.routeAll()
        #expect(proxy.requests("get_route") <= 3, "asked \(proxy.requests("get_route")) times")
        #expect(listed.points.count == Set(listed.points.map(\.waypointID)).count, "a waypoint listed twice")
        let asPosted = listed.waypoints == Array(many.prefix(listed.points.count))
        #expect(asPosted, "the waypoints listed are not the first ones posted, in order")
        #expect(listed.hasMore)
        await ann.disconnect()
        try await harness.stop()
    }
}
