import Foundation
import ParleyLocation
import Testing

@Suite struct GPXTests {
    static let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
      <metadata><name>not the track name</name><time>2027-01-15T08:00:00Z</time></metadata>
      <wpt lat="1" lon="2"><name>a waypoint, not a track point</name></wpt>
      <trk><name>Berries &amp; mushrooms</name>
        <trkseg>
          <trkpt lat="61.4978" lon="23.7610"><ele>120.5</ele><time>2027-01-15T08:00:00Z</time></trkpt>
          <trkpt lat="61.4981" lon="23.7615"><time>2027-01-15T10:00:01.25+02:00</time></trkpt>
        </trkseg>
        <trkseg><trkpt lat="-0.0000001" lon="-180"/></trkseg>
      </trk>
    </gpx>
    """

    @Test func readsTrackPointsOfAllSegments() throws {
        let track = try GPXTrack(gpx: Data(Self.sample.utf8))
        #expect(track.name == "Berries & mushrooms")
        // 2027-01-15T08:00:00Z is 1,800,000,000 s (`date -u -d 2027-01-15T08:00:00Z +%s`).
        #expect(track.points == [
            GPXTrack.Point(latitude: 61.4978, longitude: 23.761, elevation: 120.5, time: 1_800_000_000_000),
            GPXTrack.Point(latitude: 61.4981, longitude: 23.7615, time: 1_800_000_001_250),
            GPXTrack.Point(latitude: -1e-7, longitude: -180),
        ])
    }

    @Test func writesGPX11ThatReadsBack() throws {
        let track = GPXTrack(name: "<Ann's \"walk\">", points: [
            GPXTrack.Point(latitude: 61.4978, longitude: 23.761, elevation: 120.5, time: 1_800_000_000_123),
            GPXTrack.Point(latitude: -1e-7, longitude: 180, elevation: nil, time: 0),
        ])
        let text = track.gpx
        #expect(text.contains("<gpx version=\"1.1\""))
        #expect(text.contains("lat=\"-0.0000001\""))
        #expect(text.contains("<time>2027-01-15T08:00:00.123Z</time>"))
        #expect(try GPXTrack(gpx: Data(text.utf8)) == track)
    }

    /// Found by fuzzing (docs/TESTING.md §1.9): a track name is cut at 256 characters; one cut just after a space read
    /// differently once its own GPX was read again.
    @Test func aLongNameReadsTheSameFromItsOwnGPX() throws {
        let name = String(repeating: "a", count: 255) + " walk & talk"
        let text = "<gpx><trk><name>\(name.replacingOccurrences(of: "&", with: "&amp;"))</name><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
        let first = try GPXTrack(gpx: Data(text.utf8))
        #expect(first.name == String(repeating: "a", count: 255))
        let again = try GPXTrack(gpx: Data(first.gpx.utf8))
        #expect(again == first && again.gpx == first.gpx)
    }

    @Test func badDocumentsGiveClearErrors() {
        let bad = [
            "",
            "not xml",
            "<kml></kml>",
            "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>",
            "<gpx><trk><trkseg><trkpt lon=\"0\"/></trkseg></trk></gpx>",
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\"><time>yesterday</time></trkpt></trkseg></trk></gpx>",
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\"><ele>high</ele></trkpt></trkseg></trk></gpx>",
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"0\">",
            String(Self.sample.prefix(300)),
        ]
        for text in bad {
            #expect(throws: LocationError.self, "\(text.prefix(60))") { try GPXTrack(gpx: Data(text.utf8)) }
        }
    }

    /// A document with a well-formedness error is refused with the first error's line. (libxml2 on Linux reads on
    /// past it; aborting the parse there crashed libxml2, docs/TESTING.md §1.9, so the reader only keeps the first.)
    @Test func aWellFormednessErrorIsRefusedWithItsLine() {
        let points = String(repeating: "<trkpt lat=\"1\" lon=\"2\"></trkpt>\n", count: 3)
        for (text, line) in [
            ("<gpx><trk><trkseg>\n\(points)<trkpt lat=\"1\" lat=\"2\" lon=\"3\"></trkpt>\n</trkseg></trk></gpx>", 5),
            ("<gpx><trk><trkseg>\n\(points)&undefined;\n</trkseg></trk></gpx>", 5),
        ] {
            do {
                _ = try GPXTrack(gpx: Data(text.utf8))
                Issue.record("a document with an error was read: \(text)")
            } catch {
                #expect("\(error)".contains("not well-formed XML (line \(line))"), "\(error)")
            }
        }
    }

    @Test func entityExpansionIsNotABomb() {
        // "Billion laughs": must fail or stay small, never expand into gigabytes.
        var text = "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"aaaaaaaaaa\">"
        var previous = "a"
        for level in 1...9 {
            let name = "e\(level)"
            text += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
            previous = name
        }
        text += "]><gpx><trk><name>&\(previous);</name></trk></gpx>"
        let track = try? GPXTrack(gpx: Data(text.utf8))
        #expect((track?.name?.utf8.count ?? 0) <= 256)
    }

    @Test func pointsBecomeWaypoints() throws {
        let track = try GPXTrack(gpx: Data(Self.sample.utf8))
        let waypoint = track.points[2].waypoint(fallbackTime: 42)
        #expect(waypoint == Waypoint(latitude: -1e-7, longitude: -180, timestamp: 42, accuracy: 0, altitude: nil))
    }
}
