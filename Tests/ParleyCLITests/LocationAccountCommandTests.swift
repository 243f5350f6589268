import ParleyTestSupport
import Foundation
import ParleyServer
import Testing

/// `parley location share/post/show/follow/revoke/routes` with an account, against an embedded server.
@Suite("parley location with an account", .serialized, .offThePool)
struct LocationAccountCommandTests {
    static func location(_ arguments: [String], home: URL) async throws -> ParleyBinary.Result {
        var full = ["location"] + arguments
        full.insert(contentsOf: ["--home", home.path], at: 2)
        return try await ParleyBinary.runDetached(full)
    }

    @Test func deleteRouteRemovesItFromTheList() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: ann, server: server)
        #expect(try await Self.location(["post", "--lat", "61.4978", "--lon", "23.761"], home: ann).status == 0)
        let listed = try await Self.location(["routes"], home: ann)
        #expect(listed.status == 0 && listed.stdout.contains("route 1"), "\(listed.stdout)\(listed.stderr)")

        let deleted = try await Self.location(["delete-route", "1"], home: ann)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "Deleted route 1 and its positions at the server.\n", "\(deleted.stdout)")
        let after = try await Self.location(["routes"], home: ann)
        #expect(after.status == 0 && after.stdout.hasPrefix("No routes yet"), "\(after.stdout)")
        let again = try await Self.location(["delete-route", "1"], home: ann)
        #expect(again.status == 1 && !again.stderr.contains("not_found"), "\(again.stderr)")
        #expect(again.stderr.contains("route 1"), "the person's words name the route: \(again.stderr)")
        try await server.stop()
    }

    @Test func shareThenPostShowFollowAndRevoke() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob"), carol = root.appendingPathComponent("carol")
        for (name, home) in [("ann", ann), ("bob", bob), ("carol", carol)] { try await CLIAccounts.register(name, home: home, server: server) }

        for email in ["bob@example.org", "carol@example.org"] {
            let shared = try await Self.location(["share", email], home: ann)
            #expect(shared.status == 0, "\(shared.stderr)")
            #expect(shared.stdout.contains("Sharing your location with \(email): allowed at the server, key (epoch 1) sent end-to-end."))
        }
        let posted = try await Self.location(["post", "--lat", "61.4978", "--lon", "23.761", "--time", "1800000000000", "--accuracy", "4.5"], home: ann)
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(posted.stdout.contains("Posted position 2027-01-15T08:00:00.000Z 61.4978 23.761 ±4.5 m to route 1"), "\(posted.stdout)")

        let gpx = root.appendingPathComponent("ann.gpx")
        let shown = try await Self.location(["show", "ann@example.org", "--gpx", gpx.path], home: bob)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout == "2027-01-15T08:00:00.000Z 61.4978 23.761 ±4.5 m\n", "\(shown.stdout)")
        #expect(shown.stderr.contains("route 1: active") && shown.stderr.contains("1 waypoint(s) of ann@example.org"))
        #expect(try String(contentsOf: gpx, encoding: .utf8).contains("lat=\"61.4978\" lon=\"23.761\""))
        // Bob's conversation with ann shows no key message.
        let read = try await ParleyBinary.runDetached(["read", "--home", bob.path, "--conversation", "1"])
        #expect(read.status == 0 && !read.stdout.contains("location"), "\(read.stdout)")

        // follow --follow prints what is posted after it started.
        let live = try LiveProcess(["location", "follow", "--home", bob.path, "ann@example.org", "--follow", "--count", "1"])
        _ = try await live.waitFor("following ann@example.org")
        let later = try await Self.location(["post", "--lat", "61.5", "--lon", "23.8", "--altitude", "110", "--time", "1800000005000"], home: ann)
        #expect(later.status == 0, "\(later.stderr)")
        _ = try await live.waitFor("2027-01-15T08:00:05.000Z 61.5 23.8 alt 110 m")
        #expect(await live.exitStatus() == 0, "\(live.text)")

        let revoked = try await Self.location(["revoke", "carol@example.org"], home: ann)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(revoked.stdout.contains("Revoked carol@example.org. New key (epoch 2) sent end-to-end to 1 remaining follower(s)."))
        let third = try await Self.location(["post", "--lat", "61.6", "--lon", "23.9", "--time", "1800000010000"], home: ann)
        #expect(third.status == 0, "\(third.stderr)")
        let bobAfter = try await Self.location(["show", "ann@example.org"], home: bob)
        #expect(bobAfter.status == 0 && bobAfter.stdout.hasSuffix("2027-01-15T08:00:10.000Z 61.6 23.9\n"), "\(bobAfter.stdout)\(bobAfter.stderr)")
        let carolAfter = try await Self.location(["show", "ann@example.org"], home: carol)
        #expect(carolAfter.status == 1)
        #expect(carolAfter.stderr.contains("ann@example.org does not share their location with you (never, or not any more)"), "\(carolAfter.stderr)")
        #expect(!carolAfter.stdout.contains("61.6"))

        let routes = try await Self.location(["routes"], home: ann)
        #expect(routes.status == 0 && routes.stdout.contains("route 1: active") && routes.stdout.contains("3 waypoint(s)"), "\(routes.stdout)")
        let again = try await Self.location(["revoke", "carol@example.org"], home: ann)
        #expect(again.status == 1 && again.stderr.contains("does not follow your location; nothing changed"), "\(again.stderr)")
        try await server.stop()
    }

    @Test func mistakesSayWhatToDo() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: ann, server: server)
        let range = try await Self.location(["post", "--lat", "91", "--lon", "1"], home: ann)
        #expect(range.status == 1 && range.stderr.contains("position 1") && range.stderr.contains("latitude"), "\(range.stderr)")
        let keyFile = root.appendingPathComponent("bpt.key")
        try Data("AAECAwQFBgcICQoLDA0ODw==\n".utf8).write(to: keyFile)
        let mixed = try await Self.location(["post", "--lat", "1", "--lon", "1", "--legacy-key-file", keyFile.path], home: ann)
        #expect(mixed.status == 1 && mixed.stderr.contains("drop --key-file, --legacy-key-file and --owner"), "\(mixed.stderr)")
        // With an account its own key seals: a PARLEY_LEGACY_KEY meant for offline sealing is not read.
        let gpx = root.appendingPathComponent("one.gpx")
        try Data("<gpx><trk><trkseg><trkpt lat=\"61.5\" lon=\"23.75\"><time>2027-01-15T08:00:00Z</time></trkpt></trkseg></trk></gpx>".utf8).write(to: gpx)
        let replayed = try await ParleyBinary.runDetached(["location", "replay", "--home", ann.path, gpx.path], environment: ["PARLEY_LEGACY_KEY": "not a key"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let nobody = try await Self.location(["share", "nobody@example.org"], home: ann)
        #expect(nobody.status == 1 && nobody.stderr.contains("no Parley account nobody@example.org"), "\(nobody.stderr)")
        let noRoute = try await Self.location(["show", "--route", "42"], home: ann)
        #expect(noRoute.status == 1 && noRoute.stderr.contains("you have no route 42"), "\(noRoute.stderr)")
        let ended = try await Self.location(["post", "--lat", "1", "--lon", "1", "--route", "42"], home: ann)
        #expect(ended.status == 1 && ended.stderr.contains("you have no route 42"), "\(ended.stderr)")
        let bptWithout = try ParleyBinary.run(["location", "follow"], environment: ["PARLEY_LOCATION_LINK": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId=x"])
        #expect(bptWithout.status != 0 && bptWithout.stderr.contains("--bpt-server"), "\(bptWithout.stderr)")
        let badLink = try await ParleyBinary.runDetached(["location", "follow", "--home", ann.path, "--link-file", "-"], stdin: "parley://location?v=2&owner=1\n")
        #expect(badLink.status == 1 && badLink.stderr.contains("invalid location link: no key"), "\(badLink.stderr)")
        try await server.stop()
    }

    @Test func aFollowedTrackerLinkIsRememberedInTheVault() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann")
        try await CLIAccounts.register("ann", home: ann, server: server)
        let waypoint: [String: Any] = ["route_id": "rrrrrrrrrrrr", "latitude": LocationCommandTests.knownLatitude,
                                       "longitude": try LocationCommandTests.legacy("23.761", key: Array(0..<16), iv: 1),
                                       "mnc": "244", "ts": 1_800_000_000_000, "connection": "4g"]
        let body = try JSONSerialization.data(withJSONObject: ["rrrrrrrrrrrr", true, [waypoint]])
        let tracker = try BPTTestServer(routes: ["abcdefghijkl": body])
        defer { tracker.stop() }
        let expected = "2027-01-15T08:00:00.000Z 24.962535 23.761\n"

        let noneYet = try await ParleyBinary.runDetached(["location", "follow", "--home", ann.path, "--bpt-server", tracker.url])
        #expect(noneYet.status == 1 && noneYet.stderr.contains("remembers no bpt:// link yet"), "\(noneYet.stderr)")
        let link = "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%253D%253D&userId=abcdefghijkl&username=Ann%2520B"
        let first = try await ParleyBinary.runDetached(["location", "follow", "--home", ann.path, "--link-file", "-", "--bpt-server", tracker.url],
                                                       stdin: link + "\n")
        #expect(first.status == 0 && first.stdout == expected, "\(first.stderr)")
        #expect(first.stderr.contains("remembered this link in the vault"))
        // Later runs need no link: the only one remembered, or the one named by its user name or id.
        for extra in [[], ["Ann B"], ["abcdefghijkl"]] {
            let again = try await ParleyBinary.runDetached(["location", "follow", "--home", ann.path, "--bpt-server", tracker.url] + extra)
            #expect(again.status == 0 && again.stdout == expected, "\(extra): \(again.stderr)")
            #expect(!again.stderr.contains("AAECAwQFBgcICQoLDA0ODw"))
        }
        let other = try await ParleyBinary.runDetached(["location", "follow", "--home", ann.path, "--bpt-server", tracker.url, "Bob"])
        #expect(other.status == 1 && other.stderr.contains("no bpt:// link for that name") && other.stderr.contains("Ann B (user id abcdefghijkl)"),
                "\(other.stderr)")
        // The vault keeps it sealed: the key is nowhere in the account's files in the clear.
        let files = try FileManager.default.subpathsOfDirectory(atPath: ann.path)
        for file in files {
            guard let data = FileManager.default.contents(atPath: ann.appendingPathComponent(file).path) else { continue }
            #expect(data.range(of: Data("AAECAwQFBgcICQoLDA0ODw".utf8)) == nil && data.range(of: Data("abcdefghijkl".utf8)) == nil, "\(file)")
            #expect(data.range(of: Data(Array(0..<16) as [UInt8])) == nil, "\(file)")
        }
        try await server.stop()
    }

    @Test func replayAndGpsdPostToTheAccountsRoute() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-cli-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server"))
        let ann = root.appendingPathComponent("ann"), bob = root.appendingPathComponent("bob")
        for (name, home) in [("ann", ann), ("bob", bob)] { try await CLIAccounts.register(name, home: home, server: server) }
        #expect(try await Self.location(["share", "bob@example.org"], home: ann).status == 0)

        let gpx = root.appendingPathComponent("walk.gpx")
        try Data("""
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="61.5" lon="23.75"><ele>100</ele><time>2027-01-16T08:00:00Z</time></trkpt>
            <trkpt lat="61.6" lon="23.8"><time>2027-01-16T08:00:05Z</time></trkpt>
            </trkseg></trk></gpx>
            """.utf8).write(to: gpx)
        let replayed = try await Self.location(["replay", gpx.path], home: ann)
        #expect(replayed.status == 0 && replayed.stdout.contains("Posted 2 position(s) to route 1"), "\(replayed.stdout)\(replayed.stderr)")
        let again = try await Self.location(["replay", gpx.path], home: ann)
        #expect(again.stdout.contains("Posted 0 position(s) to route 1 (2 already there, skipped)"), "\(again.stdout)")
        let shown = try await Self.location(["show", "ann@example.org"], home: bob)
        #expect(shown.stdout == "2027-01-16T08:00:00.000Z 61.5 23.75 alt 100 m\n2027-01-16T08:00:05.000Z 61.6 23.8\n", "\(shown.stdout)")

        // Live fixes from a real gpsd (started by gpsfake replaying an NMEA log) join the active route.
        #expect(try await Self.location(["routes"], home: ann).stdout.contains("route 1: active"))
        let log = root.appendingPathComponent("walk.nmea")
        try Data(LocationCommandTests.nmeaLog().utf8).write(to: log)
        let fake = try GPSFake(replaying: log)
        defer { fake.stop() }
        try #require(try await fake.waitUntilListening(), "gpsd did not listen: \(fake.diagnostics)")
        let live = try await Self.location(["post", "--gpsd", "127.0.0.1:\(fake.port)", "--count", "2"], home: ann)
        #expect(live.status == 0, "\(live.stderr); \(fake.diagnostics)")
        #expect(live.stdout.split(separator: "\n").count == 2 && live.stdout.contains("61.4978 23.761"), "\(live.stdout)")
        let followed = try await Self.location(["show", "ann@example.org"], home: bob)
        let lines = followed.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines.dropFirst(2).allSatisfy { $0.contains(" 61.4978 23.761") }, "\(followed.stdout)")
        try await server.stop()
    }
}
