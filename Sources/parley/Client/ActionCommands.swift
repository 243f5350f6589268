import ArgumentParser
import Foundation
import ParleyClient

extension Parley {
    /// `parley react`.
    struct React: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "react", abstract: "Toggle a reaction (👍 ❤️ 😂 😮 😢 👎) on a message.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The message id.") var message: Int64
        @Argument(help: "The emoji.") var emoji: String

        func run() async throws {
            let present = try await options.withClient { client in try await client.messageActions.react(emoji, to: message) }
            options.output(["present": present]) { present ? "Reacted \(emoji)." : "Removed \(emoji)." }
        }
    }

    /// `parley pin`.
    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pin", abstract: "Pin (or --unpin) a message for everyone in its conversation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The message id.") var message: Int64
        @Flag(help: "Unpin instead.") var unpin = false

        func run() async throws {
            let changed = try await options.withClient { client in try await client.messageActions.pin(message, !unpin) }
            options.output(["pinned": !unpin, "changed": changed]) {
                switch (unpin, changed) {
                case (false, true): "Pinned."
                case (true, true): "Unpinned."
                case (false, false): "Message \(message) was already pinned."
                case (true, false): "Message \(message) was not pinned; nothing changed."
                }
            }
        }
    }

    /// `parley delete`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one of your messages for everyone.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The message id.") var message: Int64

        func run() async throws {
            try await options.withClient { client in try await client.messageActions.delete(message) }
            options.output(["deleted": true]) { "Deleted." }
        }
    }

    /// `parley forward`.
    struct Forward: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forward", abstract: "Forward a message to another conversation, naming its source.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The message id.") var message: Int64
        @Option(help: "The target conversation id.") var conversation: Int64

        func run() async throws {
            let outcome = try await options.withClient { client in try await client.forward(message, to: conversation) }
            options.output(outcome.message?.id ?? 0) { outcome.message.map { "Forwarded as message \($0.id)." } ?? "Queued." }
        }
    }
}
