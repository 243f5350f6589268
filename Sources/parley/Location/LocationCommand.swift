import ArgumentParser
import ParleyLocation

extension Parley {
    /// `parley location`: share and follow encrypted positions (Parley v2, Berry Picker Tracker).
    struct Location: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "location",
            abstract: "Encrypted location sharing: Parley v2 waypoints and Berry Picker Tracker compatibility.",
            discussion: """
                Positions come from --lat/--lon, a GPX file (replay) or gpsd (--gpsd HOST:PORT). With --home (or \
                --account) they are sealed with the account's key and posted to its Parley server; `share EMAIL` \
                lets a contact follow (the key travels end-to-end), `revoke EMAIL` stops them and rotates the key, \
                `show`/`follow` read someone's route. Without an account, a key file seals them as the \
                `post_waypoints` entries of docs/API.md §12, one JSON object per line, and no key prints plain \
                waypoint JSON. For Berry Picker Tracker app users: `bpt-key create` keeps a tracker key in the \
                vault, `bpt-link` prints the bpt:// link they open, `post --bpt` sends positions to the tracker \
                server. Formats: docs/FORMATS.md §13; the SDK side: docs/CLIENT.md §11.
                """,
            subcommands: [Keygen.self, Post.self, Replay.self, Follow.self, Share.self, Revoke.self, Routes.self, DeleteRoute.self, Show.self,
                          BPTKey.self, BPTLink.self]
        )
    }
}

/// How positions are written: plain JSON, sealed v2 entries, or Berry Picker Tracker values.
struct LocationSealOptions: ParsableArguments {
    @Option(name: .customLong("key-file"), help: "A v2 key file from `parley location keygen`: seal as v2.")
    var keyFile: String?

    @Option(help: "Account id of the sharer, bound into every v2 waypoint (with --key-file).")
    var owner: UInt64?

    @Option(help: "Route id: bound into every v2 waypoint (with --key-file), or the route to post to (with --home).")
    var route: UInt64?

    @Option(name: .customLong("legacy-key-file"),
            help: ArgumentHelp("A file whose first line is a Berry Picker Tracker key (base64), or - for standard input: encrypt as the app does (else PARLEY_LEGACY_KEY).",
                               valueName: "path"))
    var legacyKeyFile: String?

    /// The old form that took the key itself: refused, so the key never sits in `ps` or shell history again.
    @Option(name: .customLong("legacy-key"), help: .hidden)
    var refusedLegacyKey: String?

    /// Where a Berry Picker Tracker key may come from instead of the command line.
    static let legacyKeyAdvice = "--legacy-key-file PATH, --legacy-key-file - (standard input) or PARLEY_LEGACY_KEY"

    func validate() throws {
        if refusedLegacyKey != nil {
            throw ValidationError("--legacy-key is gone: a key on the command line is visible to other users; give it with \(Self.legacyKeyAdvice)")
        }
        if keyFile != nil, legacyKeyFile != nil { throw ValidationError("give --key-file or --legacy-key-file, not both") }
        if keyFile != nil, owner == nil || route == nil {
            throw ValidationError("--key-file needs --owner and --route: v2 binds every waypoint to both")
        }
    }

    /// The writer these options describe.
    func writer() throws -> WaypointWriter {
        if let keyFile, let owner, let route {
            return .v2(key: try LocationKeyFile.read(keyFile), owner: owner, route: route)
        }
        // PARLEY_LEGACY_KEY only when no option chose another form: an explicit --key-file wins.
        if keyFile == nil, let legacyKey = try SecretSource.read(file: legacyKeyFile, environment: "PARLEY_LEGACY_KEY",
                                                                  what: "Berry Picker Tracker key (base64)") {
            return .legacy(try LegacyKeyText.parse(legacyKey))
        }
        return .plain
    }
}
