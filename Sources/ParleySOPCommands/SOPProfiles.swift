import ArgumentParser
import ParleyPGP

extension SOPCommand {
    /// `sop list-profiles`: the profiles ParleyPGP's `SOPProfiles` offers a subcommand.
    public struct ListProfiles: ParsableCommand {
        public static let configuration = CommandConfiguration(commandName: "list-profiles", abstract: "List the profiles a subcommand offers (the first is its default).")
        @Argument(help: "generate-key or encrypt.") var subcommand: String

        public init() {}

        public func run() throws {
            for profile in try SOPProfiles.profiles(of: subcommand) { print("\(profile.name): \(profile.description)") }
        }
    }
}
