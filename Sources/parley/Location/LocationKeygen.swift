import ArgumentParser
import Foundation
import ParleyFiles
import ParleyLocation

extension Parley.Location {
    /// `parley location keygen`: a fresh v2 key, and the share link that carries it.
    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keygen",
            abstract: "Make a new v2 location key file (and print its parley://location link with --owner).")

        @Option(name: .shortAndLong, help: "Where to write the key (created readable by you only).")
        var output: String

        @Option(help: "Your account id, to print a parley://location share link for the key.")
        var owner: UInt64?

        @Flag(help: "Replace an existing file.")
        var force = false

        func run() async throws {
            let key = LocationKey.random()
            try FileIO.write(Data((key.base64URL + "\n").utf8), to: output, force: force, private: true)
            if let owner { LineOutput.write(ParleyLocationLink(owner: owner, key: key).link) }
        }
    }
}
