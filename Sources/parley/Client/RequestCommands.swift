import ArgumentParser
import Foundation
import ParleyChatUI
import ParleyClient
import ParleyTerminal

extension Parley {
    /// `parley requests …`: direct conversations strangers started with you, and your answer to each.
    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "requests",
            abstract: "Message requests: conversations people who are not your contacts started. List, accept, decline or block.",
            discussion: """
                Until you accept, the person who wrote sees none of your contacts-only profile fields, not your \
                picture, not when you are online and not when you read. Declining hides the conversation and \
                withholds what they send next; blocking also stops their messages everywhere. They are not told.
                """,
            subcommands: [ListRequests.self, AcceptRequest.self, DeclineRequest.self, BlockRequest.self],
            defaultSubcommand: ListRequests.self)
    }

    /// `parley requests list`.
    struct ListRequests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List message requests with their latest messages (the default).")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let previews = try await options.withClient { client in try await RequestList.previews(client) }
            options.output(previews.map(\.request)) {
                previews.isEmpty ? "No message requests." : previews.map { preview in
                    let request = preview.request
                    let header = "request \(request.conversationID): \(TerminalText.name(request.displayName)) <\(request.email)> wants to talk"
                    let answer = "    answer with 'parley requests accept|decline|block \(request.conversationID)'"
                    return ([header] + preview.lines.map { "    " + $0 } + [answer]).joined(separator: "\n")
                }.joined(separator: "\n")
            }
        }
    }

    /// `parley requests accept ID`.
    struct AcceptRequest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accept", abstract: "Accept a message request: the conversation joins your list and its starter becomes a contact.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The request's conversation id (see 'parley requests').") var conversation: Int64

        func run() async throws {
            try await options.withClient { client in try await client.requests.accept(conversation) }
            options.output(["accepted": conversation]) { "Accepted: conversation \(conversation) is in your list ('parley read --conversation \(conversation)')." }
        }
    }

    /// `parley requests decline ID`.
    struct DeclineRequest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decline", abstract: "Decline a message request: it leaves your list and what its starter sends next never reaches you.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The request's conversation id (see 'parley requests').") var conversation: Int64

        func run() async throws {
            try await options.withClient { client in try await client.requests.decline(conversation) }
            options.output(["declined": conversation]) {
                "Declined request \(conversation); they are not told. Writing to them yourself opens it again."
            }
        }
    }

    /// `parley requests block ID`.
    struct BlockRequest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "block", abstract: "Decline a message request and block the person who sent it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The request's conversation id (see 'parley requests').") var conversation: Int64

        func run() async throws {
            let name = try await options.withClient { client in
                guard let request = try await client.requests.blockStarter(of: conversation) else {
                    throw CommandFailure("there is no message request \(conversation) ('parley requests' lists them)")
                }
                return "\(request.displayName) <\(request.email)>"
            }
            options.output(["blocked_request": conversation]) { "Blocked \(name) and declined their request; they are not told." }
        }
    }

    /// `parley block PERSON`.
    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "block",
            abstract: "Block someone: their messages never reach you, in any conversation; neither of you sees the other online.",
            discussion: "They are not told: what they send stays undelivered on their side. 'parley unblock' undoes it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Their e-mail, or their account id.") var person: String

        func run() async throws {
            let change = try await options.withClient { client in try await client.requests.block(ParleyClient.Person(typed: person)) }
            let shown = TerminalText.name(person)
            switch change {
            case .noAccount: throw CommandFailure("no Parley account is \(shown), so no one was blocked")
            case .unchanged:
                throw CommandFailure("no one new was blocked: no Parley account has the address \(shown), or you blocked it already ('parley blocked' lists whom)")
            case .changed, .already:
                options.output(["blocked": person]) { change == .already ? "\(shown) was already blocked." : "Blocked \(shown)." }
            }
        }
    }

    /// `parley unblock PERSON`.
    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unblock", abstract: "Take someone off your block list.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Their e-mail, or their account id (see 'parley blocked').") var person: String

        func run() async throws {
            let change = try await options.withClient { client in try await client.requests.unblock(ParleyClient.Person(typed: person)) }
            let shown = TerminalText.name(person)
            options.output(["unblocked": person]) {
                change == .changed
                    ? "Unblocked \(shown): their new messages reach you again (a declined request stays declined)."
                    : "\(shown) is not on your block list ('parley blocked' shows it); nothing changed."
            }
        }
    }

    /// `parley blocked`.
    struct Blocked: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "blocked", abstract: "List the people you blocked.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            let list = try await options.withClient { client in try await client.requests.blocked() }
            options.output(list) {
                list.isEmpty ? "You have blocked no one." : list.map { person in
                    "\(person.displayName) (\(person.email ?? "account \(person.accountID)"))\tunblock with 'parley unblock \(person.email ?? String(person.accountID))'"
                }.joined(separator: "\n")
            }
        }
    }
}

