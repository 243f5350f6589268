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
            let isLink = target.lowercased().hasPrefix("parley:")
            let owner = isLink ? try await client.following.rememberLink(target) : try await client.location.sharer(target)
            let name = isLink ? nil : target
            // Subscribed before the first read, so nothing posted in between is missed (duplicates are skipped below).
            let updates = follow ? client.following.updates(from: owner) : nil
            let page = try await client.following.routeAll(of: owner, routeID: route)
            try ParleyRouteOutput.print(page, name: name, options: options)
            var shown = page.waypoints
            if let gpx { try ParleyRouteOutput.writeGPX(shown, name: name, to: gpx, force: force || follow) }
            guard let updates else { return }
            var printed = 0
            var lastSeen: [Int64: Int64] = [page.route.id: page.points.last?.waypointID ?? 0]
            ProgressLine.write("following \(name ?? "account \(owner)"); stop with Ctrl-C")
            for await update in updates {
                let fresh = update.points.filter { $0.waypointID > lastSeen[update.routeID] ?? 0 }
                guard let newest = fresh.last else { continue }
                lastSeen[update.routeID] = newest.waypointID
                if update.routeID != page.route.id, lastSeen.count == 2 { ProgressLine.write("new route \(update.routeID)") }
                for point in fresh {
                    if let waypoint = point.waypoint {
                        if options.json { options.output(LocationText.json(point)) { "" } } else { ClientOptions.say(LocationText.line(waypoint)) }
                        shown.append(waypoint)
                        printed += 1
                    } else {
                        ProgressLine.write("a waypoint could not be decrypted: \(point.problem ?? "unknown reason")")
                    }
                }
                if let gpx { try ParleyRouteOutput.writeGPX(shown, name: name, to: gpx, force: true) }
                if let count, printed >= count { return }
            }
        }
    }
}
