import ArgumentParser
import Foundation
import ParleyFiles
import ParleyLocation
import ParleyTerminal

extension Parley.Location {
    /// `parley location replay`: the track points of a GPX file as waypoints.
    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "replay",
            abstract: "Encrypt the track points of a GPX file, in order (points without <time> get the current time).",
            discussion: """
                With --home (or --account) they are posted to the account's Parley server, in batches of 500; with \
                --bpt to the Berry Picker Tracker server of the account's tracker key, sealed with it.
                """)

        @Argument(help: "The GPX file.")
        var file: String

        @OptionGroup var seal: LocationSealOptions

        @OptionGroup var bpt: BPTPostOptions

        @OptionGroup var client: ClientOptions

        func run() async throws {
            if bpt.enabled { try bpt.checkAlone(seal) }
            if client.namesAccount, !bpt.enabled { try LocationAccountPosting.checkOffline(seal) }
            // With an account the account's key seals: PARLEY_LEGACY_KEY is not even read.
            let writer = client.namesAccount || bpt.enabled ? WaypointWriter.plain : try seal.writer()
            let track = try GPXTrack(gpx: try FileIO.read(file))
            guard !track.points.isEmpty else { throw CommandFailure("\(file) has no track points (<trkpt>)") }
            let now = WallClock.nowMilliseconds()
            if bpt.enabled {
                var posting = try BPTPosting(options: client, bpt: bpt)
                return try await posting.post(track.points.enumerated().map { $0.element.waypoint(fallbackTime: now + Int64($0.offset)) })
            }
            if client.namesAccount {
                let waypoints = track.points.enumerated().map { $0.element.waypoint(fallbackTime: now + Int64($0.offset)) }
                return try await LocationAccountPosting.post(waypoints, route: seal.route, options: client)
            }
            for (index, point) in track.points.enumerated() {
                // Untimed points get distinct times: a route stores one waypoint per timestamp.
                LineOutput.write(try writer.line(point.waypoint(fallbackTime: now + Int64(index))))
            }
        }
    }
}
