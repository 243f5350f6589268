import ArgumentParser
import Foundation
import ParleyClient
import ParleyTerminal

extension Parley.Location {
    /// `parley location share EMAIL`.
    struct Share: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "share",
            abstract: "Let a contact follow your location: allow them at the server and send them the key end-to-end.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The contact's e-mail.") var email: String

        func run() async throws {
            let result = try await options.withClient { try await $0.location.share(with: email) }
            options.output(["account_id": result.accountID, "key_epoch": result.keyEpoch]) {
                "Sharing your location with \(email): allowed at the server, key (epoch \(result.keyEpoch)) sent end-to-end. Stop with 'parley location revoke \(email)'."
            }
        }
    }

    /// `parley location revoke EMAIL`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Stop a contact following you; a new key goes to everyone else, so nothing posted from now on is readable to them.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The follower's e-mail.") var email: String

        func run() async throws {
            let result = try await options.withClient { client in
                do {
                    return try await client.location.revoke(from: email)
                } catch ClientError.disconnected {
                    throw CommandFailure("the connection dropped while the new key was being sent; \(email) is revoked, "
                        + "run 'parley location share EMAIL' for each remaining follower to send them the new key")
                }
            }
            options.output(["account_id": result.accountID, "key_epoch": result.keyEpoch,
                            "key_sent": Int64(result.keySentTo.count), "key_not_sent": Int64(result.keyNotSentTo.count)]) {
                var text = "Revoked \(email). New key (epoch \(result.keyEpoch)) sent end-to-end to \(result.keySentTo.count) remaining follower(s)."
                if !result.keyNotSentTo.isEmpty {
                    text += "\n\(result.keyNotSentTo.count) follower(s) could not be reached (accounts \(result.keyNotSentTo.map(String.init).joined(separator: ", "))); "
                        + "they cannot read new positions until you run 'parley location share EMAIL' for them."
                }
                return text
            }
        }
    }

    /// `parley location routes [EMAIL]`.
    struct Routes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "routes", abstract: "List your routes, or those of someone who shares with you.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Whose routes (default: yours).") var email: String?
        @Option(help: "At most this many, newest first (1–500).") var limit = 100

        func run() async throws {
            let list = try await options.withClient { client in
                let owner: Int64? = if let email { try await client.location.sharer(email) } else { nil }
                return try await client.location.routes(of: owner, limit: limit)
            }
            options.output(list.routes) {
                list.routes.isEmpty ? "No routes yet; post a position with 'parley location post --home DIR --lat … --lon …'."
                    : list.routes.map(LocationText.route).joined(separator: "\n") + (list.hasMore ? "\n(more: raise --limit)" : "")
            }
        }
    }

    /// `parley location delete-route ID`.
    struct DeleteRoute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-route",
            abstract: "Delete one of your routes and its positions at the server (followers can no longer read it).",
            discussion: "The server keeps at most 1,000,000 positions over your routes; deleting an old route makes room at once.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The route's id, as 'parley location routes' lists it.") var routeID: Int64

        func run() async throws {
            try await options.withClient { try await $0.location.deleteRoute(routeID) }
            options.output(["route_id": routeID]) { "Deleted route \(routeID) and its positions at the server." }
        }
    }
}
