import Foundation
import ParleyLocation
import Testing

/// The line a position prints as in `parley location post`, `show` and `follow`.
@Suite struct PositionTextTests {
    @Test func aWaypointReadsAsTimeLatitudeLongitude() {
        let bare = Waypoint(latitude: 52.5, longitude: 13.4, timestamp: 0)
        #expect(PositionText.line(bare) == "\(ISO8601Time.format(0)) 52.5 13.4")
        let full = Waypoint(latitude: -1, longitude: 2.25, timestamp: 1_700_000_000_000, accuracy: 5, altitude: -12.5)
        #expect(PositionText.line(full).hasSuffix(" -1 2.25 ±5 m alt -12.5 m"))
    }

    @Test func aTrackPointWithoutTimeSaysSo() throws {
        let track = try GPXTrack(gpx: Data(#"<gpx><trk><trkseg><trkpt lat="1.5" lon="-2"></trkpt></trkseg></trk></gpx>"#.utf8))
        #expect(PositionText.line(try #require(track.points.first)) == "- 1.5 -2")
    }
}
