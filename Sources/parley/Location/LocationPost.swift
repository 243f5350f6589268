import ArgumentParser
import Foundation
import ParleyLocation
import ParleyLocationFeeds

extension Parley.Location {
    /// `parley location post`: one position from the command line, or live positions from gpsd.
    struct Post: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post",
            abstract: "Encrypt one position (--lat/--lon) or live fixes from gpsd (--gpsd HOST:PORT).",
            discussion: """
                With --home (or --account) the positions are sealed with the account's location key and posted to \
                its Parley server (its active route, or --route ID); only followers it shared with can decrypt \
                them. Without, they are printed: plain, or sealed with --key-file, or as the Berry Picker Tracker app does with \
                --legacy-key-file PATH (- reads standard input) or PARLEY_LEGACY_KEY; a key is never an argument. \
                With --bpt they are sealed with the account's tracker key (bpt-key create) and posted to its \
                Berry Picker Tracker server, where users of the tracker app holding your bpt-link read them.
                """)

        @Option(help: "Latitude in degrees.")
        var lat: Double?

        @Option(help: "Longitude in degrees.")
        var lon: Double?

        @Option(help: "Horizontal accuracy in metres.")
        var accuracy: Double = 0

        @Option(help: "Altitude in metres.")
        var altitude: Double?

        @Option(help: "Time of the position, ms since the Unix epoch (default: now).")
        var time: Int64?

        @Option(help: "Read fixes from gpsd's JSON protocol at HOST:PORT (gpsd listens on 2947).")
        var gpsd: String?

        @Option(help: "With --gpsd: stop after this many fixes (default: run until gpsd closes).")
        var count: Int?

        @OptionGroup var seal: LocationSealOptions

        @OptionGroup var bpt: BPTPostOptions

        @OptionGroup var client: ClientOptions

        func validate() throws {
            if gpsd == nil, lat == nil || lon == nil { throw ValidationError("give --lat and --lon, or --gpsd HOST:PORT") }
            if gpsd != nil, lat != nil || lon != nil { throw ValidationError("--gpsd reads positions itself; drop --lat/--lon") }
            if let count, count < 1 { throw ValidationError("--count must be at least 1") }
        }

        func run() async throws {
            if bpt.enabled { return try await postToTracker() }
            if client.namesAccount { return try await postToAccount() }
            let writer = try seal.writer()
            guard let gpsd else { return LineOutput.write(try writer.line(given)) }
            try await withGPSD(gpsd) { connection in
                try await connection.forEachNewFix(count: count) { LineOutput.write(try writer.line($0)) }
            }
        }

        /// `--bpt`: seal with the account's tracker key and post to its tracker server.
        private func postToTracker() async throws {
            try bpt.checkAlone(seal)
            var posting = try BPTPosting(options: client, bpt: bpt)
            guard let gpsd else { return try await posting.post([given]) }
            try await withGPSD(gpsd) { connection in try await posting.postLive(from: connection, count: count) }
        }

        /// `--home`: seal with the account's key and post to its server.
        private func postToAccount() async throws {
            try LocationAccountPosting.checkOffline(seal)
            guard let gpsd else { return try await LocationAccountPosting.post([given], route: seal.route, options: client) }
            try await withGPSD(gpsd) { connection in
                try await LocationAccountPosting.postLive(from: connection, count: count, route: seal.route, options: client)
            }
        }

        /// The position given with --lat and --lon (checked by `validate`), at --time or now.
        private var given: Waypoint {
            Waypoint(latitude: lat!, longitude: lon!, timestamp: time ?? WallClock.nowMilliseconds(), accuracy: accuracy, altitude: altitude)
        }

        /// Runs `body` with a connection to gpsd at `address`, closed afterwards.
        private func withGPSD(_ address: String, _ body: (GPSDConnection) async throws -> Void) async throws {
            let connection = try await GPSDConnection.open(try GPSDConnection.Endpoint(parsing: address))
            defer { connection.disconnect() }
            try await body(connection)
        }
    }
}
