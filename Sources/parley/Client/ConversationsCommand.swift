import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley conversations …`: the list (the default), deleting one, its pinned messages.
    struct Conversations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conversations",
            abstract: "List your conversations, show one's pinned messages, or delete one.",
            subcommands: [ListConversations.self, Pins.self, DeleteConversation.self],
            defaultSubcommand: ListConversations.self)
    }

    /// `parley conversations pins ID`.
    struct Pins: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pins", abstract: "Show a conversation's pinned messages.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The conversation id.") var conversation: Int64

        func run() async throws {
            let client = try options.open()
            let pinned: [Message]
            do {
                try await client.connect(reconnect: false)
                pinned = try await PinnedMessages.of(conversation, client: client)
            } catch {
                await client.disconnect()
                throw CommandFailure("\(error)")
            }
            if options.json {
                options.output(pinned) { "" }
            } else if pinned.isEmpty {
                ClientOptions.say("No pinned messages in conversation \(conversation).")
            } else {
                for message in pinned { ClientOptions.say(await MessageLine.format(message, client: client)) }
            }
            await client.disconnect()
        }
    }

    /// `parley conversations delete ID`.
    struct DeleteConversation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a conversation: a direct one for both people, a group (its creator only) for everyone; its history leaves this device.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The conversation id.") var conversation: Int64
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() async throws {
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw CommandFailure("this deletes conversation \(conversation) for its members; confirm with --yes when not at a terminal")
                }
                FileHandle.standardError.write(Data("Delete conversation \(conversation), and its history on this device? [y/N] ".utf8))
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else { throw CommandFailure("nothing was deleted") }
            }
            try await options.withClient { client in try await client.deleteConversation(conversation) }
            options.output(["deleted": conversation]) { "Deleted conversation \(conversation)." }
        }
    }
}
