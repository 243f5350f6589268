import ArgumentParser
import Foundation
import ParleyFiles
import ParleyLocation
#if canImport(FoundationNetworking)
import FoundationNetworking
import ParleyLocationFeeds
import ParleyTerminal
#endif

extension Parley.Location {
    /// `parley location follow`: read and decrypt someone's latest route — a Parley contact (by e-mail or
    /// `parley://location` link, through the account's server) or a Berry Picker Tracker user (`bpt://` link).
    struct Follow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "follow",
            abstract: "Follow someone: print their latest route's decrypted positions (--follow: keep printing new ones).",
            discussion: """
                EMAIL or a parley://location link: read through this account's Parley server (--home, --account) \
                with the key they shared end-to-end (or the link's); with --follow new positions arrive as the \
                server announces them. A bpt:// link: GET /get-users-latest-route (header user-id) from \
                --bpt-server, decrypted with the link's key, polled every --interval seconds with --follow. \
                A link carries a key, so it comes from --link-file PATH, --link-file - (standard input) or \
                PARLEY_LOCATION_LINK, never the command line; with --home its key is kept in the vault, and \
                a bpt:// user is followed again with --bpt-server alone (or their name or id if several). \
                Prints one position per line: time, latitude, longitude.
                """)

        @Argument(help: ArgumentHelp(
            "A contact's e-mail, or (with --bpt-server and --home) a remembered tracker user's name or id. A link carrying a key belongs in --link-file or PARLEY_LOCATION_LINK.",
            valueName: "email"))
        var link: String?

        @Option(name: .customLong("link-file"),
                help: ArgumentHelp("A file whose first line is a parley://location or bpt:// link, or - for standard input (else PARLEY_LOCATION_LINK).",
                                   valueName: "path"))
        var linkFile: String?

        @Option(name: .customLong("bpt-server"), help: "The Berry Picker Tracker server's base URL (bpt:// links only).")
        var bptServer: String?

        @OptionGroup var bptTimeout: BPTTimeoutOption

        @Option(help: "Parley: which route (default: the newest).")
        var route: Int64?

        @Option(help: "Parley, with --follow: stop after this many new positions (default: until Ctrl-C).")
        var count: Int?

        @OptionGroup var options: ClientOptions

        @Option(help: "Also write the route as GPX 1.1 to this file.")
        var gpx: String?

        @Flag(help: "Keep polling and print new positions as they arrive.")
        var follow = false

        @Option(help: "Seconds between polls with --follow.")
        var interval: Double = 10

        @Flag(help: "Replace an existing --gpx file.")
        var force = false

        func validate() throws {
            if interval < 0.1 { throw ValidationError("--interval must be at least 0.1 seconds") }
            if link != nil, linkFile != nil { throw ValidationError("give an e-mail or --link-file, not both") }
            if let link, link.contains("://") || link.lowercased().hasPrefix("bpt:") || link.lowercased().hasPrefix("parley:") {
                // Refused before anything is read: a key in argv is visible to every user of the machine.
                throw ValidationError("a link carries its key, and the command line is visible to other users: "
                    + "give it with --link-file PATH, --link-file - (standard input) or PARLEY_LOCATION_LINK")
            }
            if bptServer == nil, route == nil, count == nil { return }
            if bptServer != nil, route != nil || count != nil { throw ValidationError("--route and --count are for Parley routes, not bpt:// links") }
            if let count, count < 1 || !follow { throw ValidationError("--count needs --follow and must be at least 1") }
        }

        func run() async throws {
            let given = try link ?? SecretSource.read(file: linkFile, environment: "PARLEY_LOCATION_LINK", what: "link")
            let isBPT = given?.lowercased().hasPrefix("bpt:") ?? (bptServer != nil)
            if isBPT, bptServer == nil { throw CommandFailure("a bpt:// link is read from its tracker's server: add --bpt-server URL") }
            guard let bptServer else {
                guard let given else {
                    throw CommandFailure("whom to follow? give an e-mail, or a link with --link-file PATH, --link-file - or PARLEY_LOCATION_LINK")
                }
                return try await ParleyFollow.run(target: given, route: route, follow: follow, count: count, gpx: gpx, force: force, options: options)
            }
            // A bare name with --home picks a remembered tracker link; anything else that is not a bpt:// link is Parley's.
            if given != nil, !isBPT, link == nil || !options.namesAccount {
                throw CommandFailure("--bpt-server is for bpt:// links; an e-mail or parley://location link is read through your Parley account (--home)")
            }
            let share = try bptShare(given)
            var follower = BPTFollower(share: share, client: try BPTClient(server: bptServer, timeout: bptTimeout.seconds))
            while true {
                let update = try await follower.poll()
                if let route = update.newRoute {
                    let who = share.username.map { " of \($0)" } ?? ""
                    Console.err("route \(route.id)\(who) (\(route.active ? "active" : "ended"))")
                }
                for point in update.fresh { LineOutput.write(PositionText.line(point)) }
                if update.undecryptable > 0 {
                    FileHandle.standardError.write(Data("\(update.undecryptable) waypoint(s) could not be decrypted with this link's key\n".utf8))
                }
                if let gpx {
                    let track = GPXTrack(name: share.username, points: update.all)
                    try FileIO.write(Data(track.gpx.utf8), to: gpx, force: force || follow, private: false)
                }
                guard follow else { return }
                try await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            }
        }

        /// The link to follow: one given (remembered in the vault with --home), else one the vault remembers.
        private func bptShare(_ given: String?) throws -> BPTShareLink {
            if let given, given.lowercased().hasPrefix("bpt:") {
                guard options.namesAccount else {
                    do { return try BPTShareLink(parsing: given) } catch { throw CommandFailure("\(error)") }
                }
                do {
                    let share = try options.open().tracker.rememberLink(given)
                    ProgressLine.write("remembered this link in the vault: next time run 'parley location follow --bpt-server URL' with --home and no link")
                    return share
                } catch {
                    throw CommandFailure("\(error)")
                }
            }
            guard options.namesAccount else {
                throw CommandFailure("no link given: pass a bpt:// link with --link-file PATH, --link-file - or PARLEY_LOCATION_LINK "
                    + "(or --home, to use one remembered in the account's vault)")
            }
            let remembered: [BPTShareLink]
            do { remembered = try options.open().tracker.links() } catch { throw CommandFailure("\(error)") }
            return try BPTFollower.remembered(remembered, named: given)
        }
    }
}
