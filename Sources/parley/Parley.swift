import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyFileCommands
import ParleySOPCommands
import ParleyTerminal
import ParleyPGP
import ParleyServer
import ParleyServerSettings

/// The `parley` command: every Parley feature, one subcommand each.
@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley: end-to-end encrypted chat, files, location and mail.",
        version: ParleyVersion.current,
        subcommands: [
            Demo.self, Account.self, Chat.self, Send.self, Read.self, Conversations.self, Group.self, React.self, Pin.self, Delete.self,
            Forward.self, Download.self, Search.self, Requests.self, Block.self, Unblock.self, Blocked.self, ProfileCommand.self, Contacts.self, Devices.self, Verify.self, Server.self, Envelope.self, FileCommand.self, Location.self, SOPCommand.self, PGP.self, Mail.self, Bench.self,
        ]
    )

    /// ArgumentParser's `main`, except that a mistake on a `parley sop` command line exits with the
    /// code the SOP draft gives it (see `SOPUsage`).
    static func main() async {
        EventLoopSizing.matchAllowedCPUs(environment: ProcessInfo.processInfo.environment)
        do {
            let arguments = try ServerSettings.arguments(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            SOPUsage.exitIfSOP(error, sopRoot: SOPCommand.self, name: "parley sop")
            exitShowing(CommandFailure.shown(error))
        }
    }
}
