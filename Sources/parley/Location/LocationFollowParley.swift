import Foundation
import ParleyClient
import ParleyLocation

/// `parley location follow EMAIL|parley://location?…`: the Parley side of following (docs/CLIENT.md §11).
enum ParleyFollow {
    /// Prints the sharer's route, then with `follow` every new waypoint as the server announces it, until
    /// the process is stopped (or `count` new ones were printed).
    static func run(target: String, route: Int64?, follow: Bool, count: Int?, gpx: String?, force: Bool,
                    options: ClientOptions) async throws {
        try await options.withClient(reconnect: follow) { client in
            let follower = try await LocationFollower.start(following: target, route: route, live: follow, client: client)
            let (page, name) = (follower.first, follower.name)
            try ParleyRouteOutput.print(page, name: name, options: options)
            var shown = page.waypoints
            if let gpx { try ParleyRouteOutput.writeGPX(shown, name: name, to: gpx, force: force || follow) }
            guard follow else { return }
            var printed = 0
            ProgressLine.write("following \(name ?? "account \(follower.owner)"); stop with Ctrl-C")
            try await follower.follow { batch in
                if batch.newRoute { ProgressLine.write("new route \(batch.routeID)") }
                for point in batch.points {
                    if let waypoint = point.waypoint {
                        if options.json { options.output(LocationText.json(point)) { "" } } else { ClientOptions.say(LocationText.line(waypoint)) }
                        shown.append(waypoint)
                        printed += 1
                    } else {
                        ProgressLine.write("a waypoint could not be decrypted: \(point.problem ?? "unknown reason")")
                    }
                }
                if let gpx { try ParleyRouteOutput.writeGPX(shown, name: name, to: gpx, force: true) }
                return count.map { printed < $0 } ?? true
            }
        }
    }
}
