import Foundation
import ParleyWire

/// A direct conversation someone who is not a contact started with you, waiting for your answer.
public struct MessageRequest: Codable, Sendable, Equatable {
    /// The direct conversation the request is.
    public let conversationID: Int64
    /// Who started it: their account, e-mail and display name (starting a conversation shows who you are).
    public let accountID: Int64
    /// Their e-mail address.
    public let email: String
    /// The name they chose.
    public let displayName: String
    /// Last activity, ms.
    public let lastMessageAt: Int64?
}

/// Someone on your block list.
public struct BlockedAccount: Codable, Sendable, Equatable {
    /// Their account.
    public let accountID: Int64
    /// The name they chose.
    public let displayName: String
    /// Their e-mail, when this device knows it.
    public let email: String?
}

/// Message requests and the block list (docs/CLIENT.md): answering someone who is not a contact yet, and keeping
/// people out. Each answer refreshes the conversation list through the account (a request accepted is a
/// conversation; a block declines one).
public struct MessageRequests: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & Sendable
    let dependencies: any Dependencies

    private var server: any ServerCalling { dependencies.server }
    private var contacts: ContactBook { ContactBook(dependencies: dependencies) }

    /// Message requests waiting for your answer, newest first. Their starters become known contacts (name and
    /// e-mail), so their messages show who wrote them.
    public func list() async throws(ClientError) -> [MessageRequest] {
        let requests = try await server.call(API.ListRequests.self).requests.map { item in
            MessageRequest(
                conversationID: item.conversationID, accountID: item.accountID, email: item.email, displayName: item.displayName,
                lastMessageAt: item.lastMessageAt)
        }
        for request in requests {
            try contacts.remember(Contact(accountID: request.accountID, email: request.email, displayName: request.displayName))
        }
        return requests
    }

    /// Accepts a message request: the starter becomes a contact (profile, presence, read marks).
    ///
    /// What the request held was shown with it (`list`), so the conversation is marked read as it is accepted (the
    /// starter sees read ticks from now on, not before): `conversations` does not count those messages unread while
    /// `read` has nothing new. Best effort: a mark that fails is set by the next read.
    public func accept(_ conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.AcceptRequest.self, .init(conversationID: conversationID))
        _ = try? await server.call(API.MarkConversationRead.self, .init(conversationID: conversationID))
        try await ConversationBook(dependencies: dependencies).refresh()
    }

    /// Declines a message request: the conversation leaves your list and what its starter sends next never
    /// reaches you. The starter is not told. (Writing to them later opens it again.)
    public func decline(_ conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.DeclineRequest.self, .init(conversationID: conversationID))
        try await ConversationBook(dependencies: dependencies).refresh()
    }

    /// What a block or an unblock changed, read from the block list before and after (the server answers alike whether
    /// or not the account exists; the list shows whom it holds).
    public enum BlockChange: Sendable, Equatable {
        /// The person is on the list now, and was not before (or off it now, for an unblock).
        case changed
        /// The list already said so: blocked before a block, not on it before an unblock.
        case already
        /// No account has that id, so no one was blocked.
        case noAccount
        /// Nothing changed, and this device cannot tell why: no account has that address, or the account is blocked
        /// already under an address this device does not know (the list names accounts, not addresses).
        case unchanged
    }

    /// Blocks someone by e-mail or account id: their messages never reach you, in any conversation; presence
    /// ends both ways; a request from them is declined. They are not told.
    @discardableResult
    public func block(_ person: ParleyClient.Person) async throws(ClientError) -> BlockChange {
        let before = try await blockedIDs()
        _ = try await server.call(API.BlockAccount.self, person.ref)
        try await ConversationBook(dependencies: dependencies).refresh()
        if try await blockedIDs().subtracting(before).isEmpty == false { return .changed }
        switch person {
        case .account(let id): return before.contains(id) ? .already : .noAccount
        case .email(let email):
            for id in before where try contacts.contact(id)?.email?.lowercased() == email.lowercased() { return .already }
            return .unchanged
        }
    }

    /// Takes someone off your block list.
    @discardableResult
    public func unblock(_ person: ParleyClient.Person) async throws(ClientError) -> BlockChange {
        let before = try await blockedIDs()
        _ = try await server.call(API.UnblockAccount.self, person.ref)
        return try await before.subtracting(blockedIDs()).isEmpty ? .already : .changed
    }

    private func blockedIDs() async throws(ClientError) -> Set<Int64> {
        Set(try await server.call(API.ListBlocked.self).blocked.map(\.accountID))
    }

    /// Your block list, in the order you blocked them.
    public func blocked() async throws(ClientError) -> [BlockedAccount] {
        try await server.call(API.ListBlocked.self).blocked.map { item throws(ClientError) in
            BlockedAccount(accountID: item.accountID, displayName: item.displayName, email: try contacts.contact(item.accountID)?.email)
        }
    }
}

extension ParleyClient {
    /// A person named by e-mail or by account id.
    public enum Person: Sendable, Equatable {
        case email(String)
        case account(Int64)

        var ref: API.AccountChoice {
            switch self {
            case .email(let email): .email(email.lowercased())
            case .account(let id): .accountID(id)
            }
        }
    }
}
