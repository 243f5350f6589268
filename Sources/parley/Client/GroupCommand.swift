import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley group …`.
    struct Group: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "group",
            abstract: "Create groups, list their members, rename them, set their picture, invite, accept or decline, remove and leave.",
            subcommands: [Create.self, Members.self, Rename.self, Avatar.self, Invitations.self, Accept.self, Decline.self, Add.self, Remove.self, Leave.self])
    }
}

extension Parley.Group {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a group and invite people.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The title (sent end-to-end).") var title: String
        @Option(name: .customLong("invite"), help: "An e-mail to invite (repeat).") var invite: [String] = []

        func run() async throws {
            let group = try await options.withClient { client in try await client.groups.create(title: title, inviting: invite) }
            let invited = Set(invite.map { $0.lowercased() }).count
            options.output(group) { "Created group \(group.id) “\(title)”; \(invited) invited." }
        }
    }

    struct Members: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "members", abstract: "List who is in a group: name, e-mail, the creator, and how far you trust each one's key.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64

        func run() async throws {
            let (found, members) = try await options.withClient { client in try await MemberList.of(group, client: client) }
            options.output(members) {
                let title = found.title.map { "“\(TerminalText.visible($0, singleLine: true))”" } ?? "(no title yet)"
                return (["Group \(found.id) \(title): \(members.count) \(members.count == 1 ? "member" : "members")"] + members.map(\.line))
                    .joined(separator: "\n")
            }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group (creator only); the title travels end-to-end.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64
        @Argument(help: "The new title (at most 256 bytes, not only spaces).") var title: String

        func run() async throws {
            try await options.withClient { client in try await client.groups.rename(group, to: title) }
            options.output(["renamed": group]) { "Renamed group \(group) to “\(title)”." }
        }
    }

    struct Invitations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "invitations", abstract: "List invitations waiting for you.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let (list, names) = try await options.withClient { client in
                let list = try await client.groups.invitations()
                var names: [Int64: String] = [:]
                for invitation in list {
                    names[invitation.creatorID] = await PersonName.learning(invitation.creatorID, client: client)
                }
                return (list, names)
            }
            // The title travels end to end, so it is known only once you are in the group.
            options.output(list.map { ["conversation_id": $0.conversationID, "creator_id": $0.creatorID] }) {
                list.isEmpty ? "No invitations." : list.map {
                    "group \($0.conversationID): an invitation from \(names[$0.creatorID] ?? "someone") (accept with 'parley group accept \($0.conversationID)')"
                }.joined(separator: "\n")
            }
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept an invitation.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64

        func run() async throws {
            let joined = try await options.withClient { client in try await client.groups.accept(group) }
            options.output(joined) { "Joined group \(joined.id)." }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Invite someone to a group.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64
        @Argument(help: "Their e-mail.") var email: String

        func run() async throws {
            try await options.withClient { client in try await client.groups.add(email, to: group) }
            options.output(["invited": email]) { "Invited \(email)." }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a member (creator only); later messages use a new key.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64
        @Argument(help: "Who: their e-mail, or their account id.") var member: String

        func run() async throws {
            let removed: Int64 = try await options.withClient { client in
                if let id = Int64(member) {
                    try await client.groups.remove(id, from: group)
                    return id
                }
                return try await client.groups.remove(member, from: group)
            }
            options.output(["removed": removed]) { Int64(member) == nil ? "Removed \(member) from group \(group)." : "Removed account \(member) from group \(group)." }
        }
    }

    struct Leave: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "leave", abstract: "Leave a group; if you made it, whoever joined first takes over renaming, removing and deleting.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The group id.") var group: Int64

        func run() async throws {
            try await options.withClient { client in try await client.groups.leave(group) }
            options.output(["left": group]) { "Left group \(group)." }
        }
    }
}
