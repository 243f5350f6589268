import Foundation
import ParleyTestSupport
import Testing

@Suite("parley location", .serialized, .offThePool)
struct LocationCommandTests {
    let directory: URL
    /// Removed with everything in it when the test's instance goes.
    private let scratch: TemporaryDirectory

    init() throws {
        scratch = try TemporaryDirectory("parley-location")
        directory = scratch.url
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The issue's key (bytes 00…0f) and its known-answer ciphertext of 24.962535.
    static let key = "AAECAwQFBgcICQoLDA0ODw=="
    static let knownLatitude = "gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw=="

    @Test("post prints plain, v2 and legacy forms; v2 needs owner and route")
    func post() throws {
        let plain = try ParleyBinary.run(["location", "post", "--lat", "61.4978", "--lon", "23.761", "--time", "1800000000000", "--accuracy", "4.5"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "{\"lat\":61.4978,\"lon\":23.761,\"ts\":1800000000000,\"acc\":4.5}\n")

        let keygen = try ParleyBinary.run(["location", "keygen", "-o", path("k"), "--owner", "7"])
        #expect(keygen.status == 0 && keygen.stdout.hasPrefix("parley://location?v=2&owner=7&key="))
        let sealed = try ParleyBinary.run(["location", "post", "--lat", "1", "--lon", "2", "--time", "5", "--key-file", path("k"), "--owner", "7", "--route", "3"])
        #expect(sealed.status == 0 && sealed.stdout.hasPrefix("{\"ts\":5,\"data\":\"v2:"))
        #expect(!sealed.stdout.contains("\"lat\""))

        let missing = try ParleyBinary.run(["location", "post", "--lat", "1", "--lon", "2", "--key-file", path("k")])
        #expect(missing.status != 0 && missing.stderr.contains("--owner and --route"))
        let outOfRange = try ParleyBinary.run(["location", "post", "--lat", "91", "--lon", "2"])
        #expect(outOfRange.status != 0 && outOfRange.stderr.contains("latitude"))
    }

    @Test("a Berry Picker Tracker key comes from a file, standard input or PARLEY_LEGACY_KEY, never an argument")
    func legacyKeyNeverAnArgument() throws {
        try Data("\(Self.key)\n".utf8).write(to: URL(fileURLWithPath: path("bpt.key")))
        let post = ["location", "post", "--lat", "24.962535", "--lon", "0"]
        let fromFile = try ParleyBinary.run(post + ["--legacy-key-file", path("bpt.key")])
        let fromStdin = try ParleyBinary.run(post + ["--legacy-key-file", "-"], stdin: "\(Self.key)\n")
        let fromEnvironment = try ParleyBinary.run(post, environment: ["PARLEY_LEGACY_KEY": Self.key])
        for result in [fromFile, fromStdin, fromEnvironment] {
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\"latitude\":\"") && !result.stdout.contains("24.962535"), "\(result.stdout)")
            #expect(!result.stdout.contains(Self.key) && !result.stderr.contains(Self.key))
        }
        // What was sealed opens with the key, as the app would open it.
        #expect(try Self.openLegacyLatitude(fromStdin.stdout) == "24.962535")
        // --key-file wins over the environment: an explicit option beats an ambient key.
        let keygen = try ParleyBinary.run(["location", "keygen", "-o", path("k"), "--owner", "7"])
        #expect(keygen.status == 0)
        let v2 = try ParleyBinary.run(post + ["--key-file", path("k"), "--owner", "7", "--route", "3"], environment: ["PARLEY_LEGACY_KEY": Self.key])
        #expect(v2.status == 0 && v2.stdout.contains("\"data\":\"v2:"), "\(v2.stderr)")

        // The old form is refused, and says what to use, without repeating the key.
        let old = try ParleyBinary.run(post + ["--legacy-key", Self.key])
        #expect(old.status != 0 && old.stderr.contains("--legacy-key-file PATH") && old.stderr.contains("PARLEY_LEGACY_KEY"), "\(old.stderr)")
        #expect(!old.stderr.contains(Self.key) && old.stdout.isEmpty)
        let both = try ParleyBinary.run(post + ["--legacy-key-file", path("bpt.key"), "--key-file", path("k"), "--owner", "7", "--route", "3"])
        #expect(both.status != 0 && both.stderr.contains("not both"))

        try Data("c2VjcmV0\n".utf8).write(to: URL(fileURLWithPath: path("short.key")))
        let badKey = try ParleyBinary.run(post + ["--legacy-key-file", path("short.key")])
        #expect(badKey.status != 0 && badKey.stderr.contains("16 or 32 bytes") && !badKey.stderr.contains("c2VjcmV0"), "\(badKey.stderr)")
        let empty = try ParleyBinary.run(post + ["--legacy-key-file", "-"], stdin: "")
        #expect(empty.status != 0 && empty.stderr.contains("standard input is empty"), "\(empty.stderr)")
        let missing = try ParleyBinary.run(post + ["--legacy-key-file", path("nope.key")])
        #expect(missing.status != 0 && missing.stderr.contains("cannot be read"), "\(missing.stderr)")
    }

    @Test("replay turns GPX track points into waypoints in order; a broken file is a clear error")
    func replay() throws {
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="61.5" lon="23.75"><ele>100</ele><time>2027-01-15T08:00:00Z</time></trkpt>
            <trkpt lat="61.6" lon="23.8"><time>2027-01-15T08:00:05Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        try Data(gpx.utf8).write(to: URL(fileURLWithPath: path("walk.gpx")))
        let result = try ParleyBinary.run(["location", "replay", path("walk.gpx")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            {"lat":61.5,"lon":23.75,"ts":1800000000000,"acc":0,"alt":100}
            {"lat":61.6,"lon":23.8,"ts":1800000005000,"acc":0}

            """)
        try Data("<gpx><trk><trkseg><trkpt lat=\"x\"".utf8).write(to: URL(fileURLWithPath: path("bad.gpx")))
        let bad = try ParleyBinary.run(["location", "replay", path("bad.gpx")])
        #expect(bad.status != 0 && bad.stderr.contains("GPX"))
    }

    @Test("follow reads a Berry Picker Tracker server, decrypts, and exports GPX")
    func followBPT() throws {
        let key: [UInt8] = Array(0..<16)
        let waypoints: [[String: Any]] = [
            ["route_id": "rrrrrrrrrrrr", "latitude": Self.knownLatitude, "longitude": try Self.legacy("23.761", key: key, iv: 1),
             "mnc": "244", "ts": 1_800_000_000_000, "connection": "4g"],
            ["route_id": "rrrrrrrrrrrr", "latitude": try Self.legacy("-33.86882", key: key, iv: 2), "longitude": try Self.legacy("151.20929", key: key, iv: 3),
             "mnc": "244", "ts": 1_800_000_005_000, "connection": "wifi"],
            ["route_id": "rrrrrrrrrrrr", "latitude": "tampered", "longitude": "x", "mnc": "0", "ts": 0, "connection": "none"],
        ]
        let body = try JSONSerialization.data(withJSONObject: ["rrrrrrrrrrrr", true, waypoints])
        let server = try BPTTestServer(routes: ["abcdefghijkl": body])
        defer { server.stop() }
        // The app's own form of the link: every value percent-encoded twice.
        let link = "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%253D%253D&userId=abcdefghijkl&username=Ann%2520B"
        try Data("\(link)\n".utf8).write(to: URL(fileURLWithPath: path("ann.link")))
        let result = try ParleyBinary.run(["location", "follow", "--link-file", path("ann.link"), "--bpt-server", server.url, "--gpx", path("ann.gpx")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "2027-01-15T08:00:00.000Z 24.962535 23.761\n2027-01-15T08:00:05.000Z -33.86882 151.20929\n")
        #expect(result.stderr.contains("route rrrrrrrrrrrr of Ann B (active)"))
        #expect(result.stderr.contains("1 waypoint(s) could not be decrypted"))
        #expect(!result.stdout.contains("AAECAwQFBgcICQoLDA0ODw") && !result.stderr.contains("AAECAwQFBgcICQoLDA0ODw"))
        let gpx = try String(contentsOfFile: path("ann.gpx"), encoding: .utf8)
        #expect(gpx.contains("<name>Ann B</name>") && gpx.contains("lat=\"-33.86882\" lon=\"151.20929\""))
        #expect(!gpx.contains("AAECAwQFBgcICQoLDA0ODw"))
        #expect(server.requestedUsers() == ["abcdefghijkl"])

        // A link encoded once, on standard input or in PARLEY_LOCATION_LINK, reads the same; an unknown user is a clear HTTP error.
        let onceLink = "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId=abcdefghijkl"
        let once = try ParleyBinary.run(["location", "follow", "--link-file", "-", "--bpt-server", server.url], stdin: onceLink + "\n")
        #expect(once.stdout == result.stdout, "\(once.stderr)")
        let fromEnvironment = try ParleyBinary.run(["location", "follow", "--bpt-server", server.url], environment: ["PARLEY_LOCATION_LINK": onceLink])
        #expect(fromEnvironment.stdout == result.stdout, "\(fromEnvironment.stderr)")
        let unknown = try ParleyBinary.run(["location", "follow", "--bpt-server", server.url],
                                           environment: ["PARLEY_LOCATION_LINK": "bpt://?cryptoKey=AAECAwQFBgcICQoLDA0ODw%3D%3D&userId=nobody"])
        #expect(unknown.status != 0 && unknown.stderr.contains("HTTP 404"))
        let broken = try ParleyBinary.run(["location", "follow", "--link-file", "-", "--bpt-server", server.url], stdin: "bpt://?userId=x\n")
        #expect(broken.status != 0 && broken.stderr.contains("cryptoKey"))
        let none = try ParleyBinary.run(["location", "follow", "--bpt-server", server.url])
        #expect(none.status != 0 && none.stderr.contains("--link-file"), "\(none.stderr)")

        // The old form, the link as an argument, is refused before anything is fetched, without repeating it.
        let requests = server.requestedUsers().count
        for argument in [link, onceLink, "parley://location?v=2&owner=1&key=AAAA"] {
            let old = try ParleyBinary.run(["location", "follow", argument, "--bpt-server", server.url])
            #expect(old.status != 0 && old.stderr.contains("--link-file PATH") && old.stderr.contains("PARLEY_LOCATION_LINK"), "\(old.stderr)")
            #expect(!old.stderr.contains("AAECAwQFBgcICQoLDA0ODw") && !old.stderr.contains("key=AAAA"))
        }
        #expect(server.requestedUsers().count == requests)
    }

    @Test("post --gpsd reads live fixes from a real gpsd fed by gpsfake")
    func gpsd() async throws {
        try Data(Self.nmeaLog().utf8).write(to: URL(fileURLWithPath: path("walk.nmea")))
        let fake = try GPSFake(replaying: URL(fileURLWithPath: path("walk.nmea")))
        defer { fake.stop() }
        try #require(try await fake.waitUntilListening(), "gpsd did not listen: \(fake.diagnostics)")
        let result = try await ParleyBinary.runDetached(["location", "post", "--gpsd", "127.0.0.1:\(fake.port)", "--count", "3"])
        #expect(result.status == 0, "\(result.stderr); \(fake.diagnostics)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["lat"] as? Double == 61.4978 && object["lon"] as? Double == 23.761)
            let ts = try #require(object["ts"] as? Int)
            #expect((1_800_000_000_000...1_800_000_010_000).contains(ts))
        }
        let refused = try await ParleyBinary.runDetached(["location", "post", "--gpsd", "127.0.0.1:1"])
        #expect(refused.status != 0 && refused.stderr.contains("cannot connect to gpsd"))
    }

    /// Ten seconds of GGA + RMC at 61.4978 N 23.761 E on 2027-01-15 from 08:00:00 UTC.
    static func nmeaLog() -> String {
        func sentence(_ body: String) -> String {
            let checksum = body.utf8.reduce(0) { $0 ^ $1 }
            return "$\(body)*\(String(format: "%02X", checksum))\r\n"
        }
        return (0..<10).map { second in
            let time = String(format: "0800%02d.00", second)
            return sentence("GPGGA,\(time),6129.8680,N,02345.6600,E,1,08,0.9,120.5,M,17.0,M,,")
                + sentence("GPRMC,\(time),A,6129.8680,N,02345.6600,E,0.0,0.0,150127,,,A")
        }.joined()
    }

    /// A legacy value made by `openssl enc`, an implementation independent of ours.
    static func legacy(_ text: String, key: [UInt8], iv seed: UInt8) throws -> String {
        let iv = [UInt8](repeating: seed, count: 16)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["enc", "-aes-128-cbc", "-K", key.map { String(format: "%02x", $0) }.joined(),
                             "-iv", iv.map { String(format: "%02x", $0) }.joined()]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try ProcessLaunch.start(process)
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try input.fileHandleForWriting.close()
        let ciphertext = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ciphertext.base64EncodedString() + Data(iv).base64EncodedString()
    }

    /// The latitude of a legacy line from `post`, opened by `openssl enc -d` with the test key.
    static func openLegacyLatitude(_ line: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let value = try #require(object["latitude"] as? String)
        // Ciphertext in base64, then the 16-byte IV in base64 (24 characters).
        let ciphertext = try #require(Data(base64Encoded: String(value.dropLast(24))))
        let iv = try #require(Data(base64Encoded: String(value.suffix(24))))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["enc", "-d", "-aes-128-cbc", "-K", (0..<16).map { String(format: "%02x", $0) }.joined(),
                             "-iv", iv.map { String(format: "%02x", $0) }.joined()]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try ProcessLaunch.start(process)
        try input.fileHandleForWriting.write(contentsOf: ciphertext)
        try input.fileHandleForWriting.close()
        let plaintext = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: plaintext, as: UTF8.self)
    }
}
