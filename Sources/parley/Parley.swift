import ArgumentParser

/// The `parley` command: every Parley feature, one subcommand each.
@main
struct Parley: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley",
        abstract: "Parley: end-to-end encrypted chat, files, location and mail.",
        version: ParleyVersion.current,
        subcommands: [Server.self, Envelope.self, File.self, Location.self, Bench.self]
    )
}
