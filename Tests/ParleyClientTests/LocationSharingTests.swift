import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyLocation
import ParleyWire
import Testing

/// Location sharing through the SDK against a real embedded server (docs/CLIENT.md §11).
@Suite("Client: location sharing, followers and key rotation")
struct LocationSharingTests {
    static func point(_ lat: Double, _ lon: Double, at ts: Int64, altitude: Double? = nil) -> Waypoint {
        Waypoint(latitude: lat, longitude: lon, timestamp: ts, accuracy: 5, altitude: altitude)
    }

    /// The message text of a failed read, so tests can check it says what went wrong.
    static func failure(_ body: () async throws(ClientError) -> some Any) async -> String? {
        do { _ = try await body(); return nil } catch { return error.description }
    }

    @Test func aRevokedFollowerCannotReadOrDecryptWhatIsPostedAfterwards() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob"), carol = try await harness.person("carol")
        let annID = try #require(await ann.accountID)
        for email in ["bob@example.org", "carol@example.org"] {
            let shared = try await ann.location.share(with: email)
            #expect(shared.keyEpoch == 1 && shared.keySentTo == [shared.accountID])
        }
        for follower in [bob, carol] {
            try await eventually("the key reaches \(follower.email)") { try await follower.following.keyEpochs(of: annID) == [1] }
        }
        let before = Self.point(60.1699, 24.9384, at: 1_800_000_000_000)
        let first = try await ann.location.post([before])
        #expect(first.stored == 1 && first.duplicates == 0 && first.keyEpoch == 1)
        #expect(try await bob.following.route(of: annID).waypoints == [before])
        #expect(try await carol.following.route(of: annID).waypoints == [before])

        let revoked = try await ann.location.revoke(from: "carol@example.org")
        let bobID = try #require(await bob.accountID)
        #expect(revoked.keyEpoch == 2 && revoked.keySentTo == [bobID] && revoked.keyNotSentTo.isEmpty)
        try await eventually("bob gets the new key") { try await bob.following.keyEpochs(of: annID) == [2, 1] }

        let after = Self.point(60.1710, 24.9410, at: 1_800_000_060_000, altitude: 12.5)
        let second = try await ann.location.post([after])
        #expect(second.routeID == first.routeID && second.keyEpoch == 2)
        let bobsView = try await bob.following.route(of: annID)
        #expect(bobsView.waypoints == [before, after] && bobsView.failures == 0)

        // The server refuses carol's read, with a message that says why.
        let refusal = await Self.failure { () async throws(ClientError) in try await carol.following.route(of: annID) }
        #expect(refusal?.contains("does not share their location with you") == true)
        // And had she got the ciphertext elsewhere, none of her keys opens it; the old waypoint still does.
        let raw = try await ann.call(API.GetRoute.self, .init(routeID: first.routeID)).waypoints
        let ring = try await carol.locationKeys.ring(LocationKeyRing.record(for: annID))
        #expect(ring.entries.map(\.epoch) == [1])
        let opened = raw.map { item in
            LocationFollowing.openWaypoint(item.data, owner: annID, routeID: first.routeID, timestamp: item.ts, ring: ring)
        }
        #expect(opened.count == 2 && opened[0].waypoint == before)
        #expect(opened[1].waypoint == nil && opened[1].problem?.contains("none of the 1 location key") == true)
        // The owner reads both, under either key.
        #expect(try await ann.following.route().waypoints == [before, after])
        #expect(try await ann.following.keyEpochs() == [2, 1])

        // Revoking someone who does not follow changes nothing.
        let again = await Self.failure { () async throws(ClientError) in try await ann.location.revoke(from: "carol@example.org") }
        #expect(again?.contains("does not follow your location; nothing changed") == true)
        #expect(try await ann.following.keyEpochs() == [2, 1])
        for client in [ann, bob, carol] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aPairedDeviceBringsTheLocationKeysAlong() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        _ = try await ann.location.share(with: "bob@example.org")
        try await eventually("the key reaches bob") { try await bob.following.keyEpochs(of: annID) == [1] }
        let here = Self.point(48.8566, 2.3522, at: 1_800_000_000_000)
        _ = try await ann.location.post([here])

        // Bob's new phone follows ann at once; ann's new phone posts under the key bob already holds.
        let (bobPhone, _) = try await DevicePairingClientTests.pair(bob, name: "phone", home: harness.home("bob-phone"), harness: harness)
        let (annPhone, _) = try await DevicePairingClientTests.pair(ann, name: "phone", home: harness.home("ann-phone"), harness: harness)
        for phone in [bobPhone, annPhone] { try await phone.connect() }
        #expect(try await bobPhone.following.keyEpochs(of: annID) == [1])
        #expect(try await bobPhone.following.route(of: annID).waypoints == [here])
        let there = Self.point(48.8600, 2.3400, at: 1_800_000_060_000)
        let posted = try await annPhone.location.post([there])
        #expect(posted.keyEpoch == 1)
        #expect(try await bob.following.route(of: annID).waypoints == [here, there])
        for client in [ann, bob, annPhone, bobPhone] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aFollowerStreamsNewWaypointsAsTheyArrive() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        _ = try await ann.location.share(with: "bob@example.org")
        try await eventually("bob has the key") { try await bob.following.keyEpochs(of: annID) == [1] }
        // A waypoint announced before the stream starts is not in it.
        let events = bob.events()
        _ = try await ann.location.post([Self.point(1, 2, at: 1_000)])
        for await event in events { if case .server(.newWaypoints) = event { break } }
        let updates = bob.following.updates(from: annID)
        try await Task.sleep(for: .milliseconds(100))   // the subscription is in place before the post
        let batch = (0..<3).map { Self.point(10 + Double($0), 20, at: 2_000 + Int64($0)) }
        let posted = try await ann.location.post(batch)
        var received: [Waypoint] = []
        for await update in updates {
            #expect(update.ownerID == annID && update.routeID == posted.routeID)
            received += update.points.compactMap(\.waypoint)
            if received.count >= 3 { break }
        }
        #expect(received == batch)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func routesAreListedPagedDeactivatedAndDeleted() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let many = (0..<1_201).map { Self.point(Double($0 % 80), 0.5, at: 5_000 + Int64($0)) }
        let posted = try await ann.location.post(many)
        #expect(posted.stored == 1_201)
        let retried = try await ann.location.post(Array(many.prefix(10)), to: posted.routeID)
        #expect(retried.stored == 0 && retried.duplicates == 10)
        let firstPage = try await ann.following.route(limit: 500)
        #expect(firstPage.points.count == 500 && firstPage.hasMore && firstPage.route.waypointCount == 1_201)
        let all = try await ann.following.routeAll()
        #expect(all.waypoints == many && !all.hasMore)

        try await ann.location.deactivateRoute(posted.routeID)
        let ended = await Self.failure { () async throws(ClientError) in try await ann.location.post([Self.point(1, 1, at: 9)], to: posted.routeID) }
        #expect(ended?.contains("has ended") == true)
        let next = try await ann.location.post([Self.point(1, 1, at: 9)])   // no active route: a new one
        #expect(next.routeID != posted.routeID)
        let list = try await ann.location.routes()
        #expect(list.routes.map(\.id) == [next.routeID, posted.routeID] && list.routes[1].endedAt != nil && list.routes[0].active)
        try await ann.location.deleteRoute(posted.routeID)
        #expect(try await ann.location.routes().routes.map(\.id) == [next.routeID])
        await ann.disconnect()
        try await harness.stop()
    }

    @Test func hostileInputGivesClearErrorsAndChangesNothing() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        let chat = try await ann.startConversation(with: "bob@example.org")

        // Location-key messages with broken keys: shown as ignored, no key stored.
        let broken: [(LocationKeyContent, String)] = [
            (LocationKeyContent(v: 1, key: "c2hvcnQ=", epoch: 1), "not 44 characters"),
            (LocationKeyContent(v: 1, key: Data(repeating: 7, count: 31).base64EncodedString(), epoch: 1), "not 32 bytes"),
            (LocationKeyContent(v: 1, key: String(repeating: "!", count: 44), epoch: 1), "not 44 characters of standard base64"),
            (LocationKeyContent(v: 1, key: Data(repeating: 7, count: 32).base64EncodedString(), epoch: 0), "epoch"),
            (LocationKeyContent(v: 2, key: Data(repeating: 7, count: 32).base64EncodedString(), epoch: 1), "unsupported version 2"),
            (LocationKeyContent(v: nil, key: nil, epoch: nil), "unsupported version none"),
        ]
        for (location, why) in broken {
            var content = MessageContent(id: await ann.owner.newClientMessageID(), type: LocationKeyContent.type)
            content.location = location
            let sent = try await ann.owner.deliver(OutboxEntry(conversationID: chat.id, content: content, kind: LocationKeyContent.type,
                                                         forwardOf: nil, created: 0))
            try await eventually("bob receives the broken key") { try bob.history.message(sent.id) != nil }
            let received = try #require(try bob.history.message(sent.id))
            #expect(received.kind == LocationKeyContent.invalidKind && !received.undecryptable)
            #expect(received.text.contains("ignored a location key that was not valid") && received.text.contains(why))
            #expect(try await bob.following.keyEpochs(of: annID).isEmpty)
        }
        // A type without its object (and an object without its type) is not content at all.
        var bare = MessageContent(id: "x", type: LocationKeyContent.type)
        #expect(throws: ClientFormatError.unreadable) { try MessageContent.decode(bare.encoded()) }
        bare.type = "text"
        bare.location = LocationKeyContent(key: .random(), epoch: 1)
        #expect(throws: ClientFormatError.unreadable) { try MessageContent.decode(bare.encoded()) }

        // A real key then arrives and is hidden from the conversation.
        _ = try await ann.location.share(with: "bob@example.org")
        try await eventually("bob has the key") { try await bob.following.keyEpochs(of: annID) == [1] }
        let visible = try bob.history.messages(in: chat.id)
        #expect(visible.count == broken.count && visible.allSatisfy { $0.kind == LocationKeyContent.invalidKind })

        // Waypoints that fail authentication: another key, moved from another route, re-dated, garbage.
        let good = Self.point(48.85, 2.35, at: 7_000)
        let posted = try await ann.location.post([good])
        let route = UInt64(posted.routeID), owner = UInt64(annID)
        let annKey = try await ann.locationKeys.own().key
        let forged: [(ts: Int64, data: String)] = [
            (7_001, try WaypointV2.seal(Self.point(1, 1, at: 7_001), owner: owner, routeID: route, key: .random())),
            (7_002, try WaypointV2.seal(Self.point(1, 1, at: 7_002), owner: owner, routeID: route + 1, key: annKey)),
            (7_003, try WaypointV2.seal(Self.point(1, 1, at: 7_004), owner: owner, routeID: route, key: annKey)),
            (7_005, "v2:AAAA"),
            (7_006, "gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw=="),
            (7_007, "v9:AAAA"),
        ]
        _ = try await ann.call(API.PostWaypoints.self, .init(routeID: posted.routeID, waypoints: forged.map { API.NewWaypoint(ts: $0.ts, data: $0.data) }))
        let page = try await bob.following.route(of: annID)
        #expect(page.waypoints == [good] && page.failures == forged.count)
        let problems = page.points.dropFirst().map { $0.problem ?? "" }
        #expect(problems[0].contains("none of the 1 location key") && problems[1].contains("none of the 1 location key"))
        #expect(problems[2].contains("none of the 1 location key"))
        #expect(problems[3].contains("malformed") && problems[4].contains("legacy") && problems[5].contains("unsupported"))

        // Routes that do not exist, for the owner and for a follower.
        let missing = await Self.failure { () async throws(ClientError) in try await bob.following.route(of: annID, routeID: 999_999) }
        #expect(missing?.contains("has no route 999999") == true)
        let notMine = await Self.failure { () async throws(ClientError) in try await ann.location.deactivateRoute(999_999) }
        #expect(notMine == "you have no route 999999; list yours with 'parley location routes'")
        // A position out of range is refused before anything is sent.
        let invalid = await Self.failure { () async throws(ClientError) in
            try await ann.location.post([Self.point(1, 1, at: 8_000), Self.point(91, 1, at: 8_001)])
        }
        #expect(invalid?.contains("position 2") == true && invalid?.contains("latitude") == true)
        #expect(try await ann.following.route().route.waypointCount == 1 + Int64(forged.count))
        // Sharing with nobody, or oneself.
        let nobody = await Self.failure { () async throws(ClientError) in try await ann.location.share(with: "nobody@example.org") }
        #expect(nobody?.contains("no Parley account nobody@example.org") == true)
        let me = await Self.failure { () async throws(ClientError) in try await ann.location.share(with: "ann@example.org") }
        #expect(me?.contains("your own account") == true)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aLinkHandsOverAKeyButTheServerStillDecides() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID)
        let point = Self.point(-33.86, 151.2, at: 9_000)
        _ = try await ann.location.post([point])
        let key = try await ann.locationKeys.own().key
        let link = ParleyLocationLink(owner: UInt64(annID), key: key).link
        #expect(try await bob.following.rememberLink(link) == annID)
        #expect(try await bob.following.keyEpochs(of: annID) == [0])
        let refused = await Self.failure { () async throws(ClientError) in try await bob.following.route(of: annID) }
        #expect(refused?.contains("does not share their location with you") == true)
        _ = try await ann.call(API.AllowFollower.self, .email("bob@example.org"))   // allowed, but no key message
        #expect(try await bob.following.route(of: annID).waypoints == [point])
        let bad = await Self.failure { () async throws(ClientError) in try await bob.following.rememberLink("parley://location?v=3&owner=1&key=x") }
        #expect(bad?.contains("unsupported version 3") == true)
        #expect(try await bob.following.keyEpochs(of: annID) == [0])
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
