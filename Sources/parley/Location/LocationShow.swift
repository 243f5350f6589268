import ArgumentParser
import Foundation
import ParleyClient
import ParleyFiles
import ParleyLocation
import ParleyTerminal

extension Parley.Location {
    /// `parley location show [EMAIL]`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a route's decrypted positions (your own, or of someone who shares with you); --gpx writes GPX 1.1.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Whose route (default: yours).") var email: String?
        @Option(help: "Which route (default: the newest).") var route: Int64?
        @Option(help: "Also write the route as GPX 1.1 to this file.") var gpx: String?
        @Flag(help: "Replace an existing --gpx file.") var force = false

        func run() async throws {
            let (page, name) = try await options.withClient { client in
                let owner: Int64? = if let email { try await client.location.sharer(email) } else { nil }
                return (try await client.following.routeAll(of: owner, routeID: route), email)
            }
            try ParleyRouteOutput.print(page, name: name, options: options)
            if let gpx { try ParleyRouteOutput.writeGPX(page.waypoints, name: name, to: gpx, force: force) }
        }
    }
}

/// Printing a Parley route for `show` and `follow`.
enum ParleyRouteOutput {
    /// The route's description on standard error, its positions on standard output; a route none of
    /// whose waypoints decrypts is an error that says why.
    static func print(_ page: LocationRoutePage, name: String?, options: ClientOptions) throws {
        let who = name.map { " of \($0)" } ?? ""
        ProgressLine.write("\(LocationText.route(page.route))\(who)")
        if options.json {
            options.output(page.points.map(LocationText.json)) { "" }
        } else {
            for point in page.points { if let waypoint = point.waypoint { ClientOptions.say(LocationText.line(waypoint)) } }
        }
        try reportFailures(page.points)
    }

    /// Says on standard error how many waypoints could not be opened and why; throws when none could.
    static func reportFailures(_ points: [LocationPoint]) throws {
        let failed = points.filter { $0.waypoint == nil }
        guard let first = failed.first?.problem else { return }
        if failed.count == points.count {
            throw CommandFailure("none of the \(points.count) waypoint(s) could be decrypted: \(first)")
        }
        ProgressLine.write("\(failed.count) waypoint(s) could not be decrypted: \(first)")
    }

    /// Writes positions as a GPX 1.1 track.
    static func writeGPX(_ waypoints: [Waypoint], name: String?, to path: String, force: Bool) throws {
        let points = waypoints.map { GPXTrack.Point(latitude: $0.latitude, longitude: $0.longitude, elevation: $0.altitude, time: $0.timestamp) }
        try FileIO.write(Data(GPXTrack(name: name, points: points).gpx.utf8), to: path, force: force, private: false)
    }
}
