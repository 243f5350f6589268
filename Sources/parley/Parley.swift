import ArgumentParser

/// The `parley` command: every Parley feature, one subcommand each.
@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley: end-to-end encrypted chat, files, location and mail.",
        version: ParleyVersion.current,
        subcommands: [
            Demo.self, Account.self, Chat.self, Send.self, Read.self, Conversations.self, Group.self, React.self, Pin.self, Delete.self,
            Forward.self, Download.self, Search.self, ProfileCommand.self, Contacts.self, Devices.self, Verify.self, Server.self, Envelope.self, File.self, Location.self, SOP.self, PGP.self, Bench.self,
        ]
    )
}
