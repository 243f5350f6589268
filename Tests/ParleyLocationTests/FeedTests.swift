import Foundation
import ParleyLocation
import Testing

@Suite struct FeedTests {
    static let key = try! LegacyKey(base64: "AAECAwQFBgcICQoLDA0ODw==")

    @Test func trackerRoutesDecryptAndSkipWhatDoesNotDecrypt() throws {
        let longitude = try LegacyCipher.encrypt(text: "23.761", key: Self.key, iv: Array(repeating: 7, count: 16))
        let body = """
            ["a1B2c3D4e5F6", 1, [
              {"route_id":"a1B2c3D4e5F6","latitude":"gZa6zSEooB/lAAwRBzMAAA==EBESExQVFhcYGRobHB0eHw==",
               "longitude":"\(longitude)","mnc":"244","ts":1800000000,"connection":"4g"},
              {"route_id":"a1B2c3D4e5F6","latitude":"AAAA","longitude":"BBBB","mnc":"244","ts":"2027-01-15T08:00:00Z"}]]
            """
        let route = try BPTRoute(json: Data(body.utf8))
        #expect(route.routeID == "a1B2c3D4e5F6" && route.active && route.waypoints.count == 2)
        let (points, failed) = route.decrypt(with: Self.key)
        // Seconds are read as seconds; the tampered waypoint is counted, not fatal.
        #expect(points == [GPXTrack.Point(latitude: 24.962535, longitude: 23.761, time: 1_800_000_000_000)])
        #expect(failed == 1)
    }

    @Test func trackerResponsesOfTheWrongShapeAreMalformed() {
        let bad = ["", "{}", "[]", "[\"r\", true]", "[\"r\", true, 5]", "[\"r\", true, [{\"latitude\": 1}]]",
                   "[null, true, []]", "[\"r\", true, [[]]]", String(repeating: "[", count: 100_000)]
        for text in bad {
            #expect(throws: LocationError.self, "\(text.prefix(40))") { try BPTRoute(json: Data(text.utf8)) }
        }
    }

    @Test func gpsdFixesAreReadAndEverythingElseSkipped() {
        let fix = #"{"class":"TPV","mode":3,"time":"2027-01-15T08:00:02.000Z","lat":61.4978,"lon":23.761,"altMSL":120.5,"eph":17.1}"#
        #expect(GPSDReport.waypoint(fromLine: Array(fix.utf8))
            == Waypoint(latitude: 61.4978, longitude: 23.761, timestamp: 1_800_000_002_000, accuracy: 17.1, altitude: 120.5))
        let twoD = #"{"class":"TPV","mode":2,"time":"2027-01-15T08:00:01Z","lat":1,"lon":2,"alt":9,"epx":3,"epy":4}"#
        #expect(GPSDReport.waypoint(fromLine: Array(twoD.utf8))
            == Waypoint(latitude: 1, longitude: 2, timestamp: 1_800_000_001_000, accuracy: 4, altitude: nil))
        let skipped = [
            #"{"class":"VERSION","release":"3.22"}"#, #"{"class":"TPV","mode":1,"time":"2027-01-15T08:00:01Z"}"#,
            #"{"class":"TPV","mode":3,"lat":1,"lon":2}"#, #"{"class":"TPV","mode":3,"time":"x","lat":1,"lon":2}"#,
            #"{"class":"TPV","mode":3,"time":"2027-01-15T08:00:01Z","lat":95,"lon":2}"#, "not json", "",
            String(repeating: " ", count: GPSDReport.maxLineLength + 1),
        ]
        for line in skipped { #expect(GPSDReport.waypoint(fromLine: Array(line.utf8)) == nil, "\(line.prefix(40))") }
    }
}
