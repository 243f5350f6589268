import ArgumentParser
import Foundation
import ParleyClient

extension Parley.Group {
    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decline", abstract: "Decline an invitation to a group.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id (see 'parley group invitations').") var group: Int64

        func run() async throws {
            try await options.withClient { client in try await client.groups.decline(group) }
            options.output(["declined": group]) { "Declined the invitation to group \(group)." }
        }
    }

    struct Avatar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "avatar",
            abstract: "Set a group's picture from a JPEG or PNG: shrunk, encrypted here, its key sent end to end to the members.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64
        @Option(help: ArgumentHelp("The picture (JPEG or PNG).", valueName: "path")) var image: String

        func run() async throws {
            let url = URL(fileURLWithPath: (image as NSString).expandingTildeInPath)
            try await options.withClient { client in try await client.avatars.setGroup(image: url, of: group) }
            options.output(["group": group]) { "Set the picture of group \(group); the members get its key end to end." }
        }
    }
}
