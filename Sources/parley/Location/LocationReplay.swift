import ArgumentParser
import Foundation
import ParleyLocation

extension Parley.Location {
    /// `parley location replay`: the track points of a GPX file as waypoints.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt the track points of a GPX file, in order (points without <time> get the current time).")

        @Argument(help: "The GPX file.")
        var file: String

        @OptionGroup var seal: LocationSealOptions

        func run() async throws {
            let writer = try seal.writer()
            let track = try GPXTrack(gpx: try FileIO.read(file))
            guard !track.points.isEmpty else { throw CommandFailure("\(file) has no track points (<trkpt>)") }
            let now = WallClock.nowMilliseconds()
            for (index, point) in track.points.enumerated() {
                // Untimed points get distinct times: a route stores one waypoint per timestamp.
                LineOutput.write(try writer.line(point.waypoint(fallbackTime: now + Int64(index))))
            }
        }
    }
}
