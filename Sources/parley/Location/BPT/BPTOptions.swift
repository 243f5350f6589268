import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

/// How long to wait for a tracker server, shared by every command that talks to one.
struct BPTTimeoutOption: ParsableArguments {
    @Option(name: .customLong("bpt-timeout"), help: ArgumentHelp("Seconds a request to the tracker server may take.", valueName: "seconds"))
    var seconds: Double = 30

    func validate() throws {
        guard seconds >= 0.1, seconds <= 600 else { throw ValidationError("--bpt-timeout must be 0.1…600 seconds") }
    }
}

/// `post`/`replay --bpt`: send the positions to the tracker server of this account's tracker key.
struct BPTPostOptions: ParsableArguments {
    @Flag(name: .customLong("bpt"),
          help: "Seal with this account's tracker key (bpt-key create) and post to its Berry Picker Tracker server.")
    var enabled = false

    @Flag(name: .customLong("new-route"), help: "With --bpt: end the current tracker route and start a new one.")
    var newRoute = false

    @OptionGroup var timeout: BPTTimeoutOption

    func validate() throws {
        if newRoute, !enabled { throw ValidationError("--new-route is for --bpt") }
    }

    /// Refuses the options of the other forms: the vault's tracker key seals, the tracker server numbers routes.
    func checkAlone(_ seal: LocationSealOptions) throws {
        if seal.keyFile != nil || seal.legacyKeyFile != nil || seal.owner != nil || seal.route != nil {
            throw CommandFailure("with --bpt the tracker key in the vault seals the positions and the tracker server keeps the route; "
                + "drop --key-file, --legacy-key-file, --owner and --route")
        }
    }
}

extension ClientOptions {
    /// The account's tracker identity, or an error that says how to make one.
    func bptOwnKey(_ client: ParleyClient) throws -> BPTOwnKey {
        let own: BPTOwnKey?
        do { own = try client.tracker.ownKey() } catch { throw CommandFailure("\(error)") }
        guard let own else {
            throw CommandFailure("this account has no Berry Picker Tracker key yet: make one with 'parley location bpt-key create --bpt-server URL'")
        }
        return own
    }
}
