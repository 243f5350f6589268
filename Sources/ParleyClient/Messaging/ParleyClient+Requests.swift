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

extension ParleyClient {
    /// Message requests waiting for your answer, newest first. Their starters become known contacts (name and
    /// e-mail), so their messages show who wrote them.
    public func messageRequests() async throws(ClientError) -> [MessageRequest] {
        let requests = try await call(API.ListRequests.self).requests.map { item in
            MessageRequest(
                conversationID: item.conversationID, accountID: item.accountID, email: item.email, displayName: item.displayName,
                lastMessageAt: item.lastMessageAt)
        }
        for request in requests {
            try remember(Contact(accountID: request.accountID, email: request.email, displayName: request.displayName))
        }
        return requests
    }

    /// Accepts a message request: the starter becomes a contact (profile, presence, read marks).
    public func acceptRequest(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.AcceptRequest.self, .init(conversationID: conversationID))
        try await refreshConversations()
    }

    /// Declines a message request: the conversation leaves your list and what its starter sends next never
    /// reaches you. The starter is not told. (Writing to them later opens it again.)
    public func declineRequest(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.DeclineRequest.self, .init(conversationID: conversationID))
        try await refreshConversations()
    }

    /// Blocks someone by e-mail or account id: their messages never reach you, in any conversation; presence
    /// ends both ways; a request from them is declined. They are not told. The answer is the same whether or
    /// not such an account exists.
    public func block(_ person: Person) async throws(ClientError) {
        _ = try await call(API.BlockAccount.self, person.ref)
        try await refreshConversations()
    }

    /// Takes someone off your block list.
    public func unblock(_ person: Person) async throws(ClientError) {
        _ = try await call(API.UnblockAccount.self, person.ref)
    }

    /// Your block list, in the order you blocked them.
    public func blockedAccounts() async throws(ClientError) -> [BlockedAccount] {
        try await call(API.ListBlocked.self).blocked.map { item throws(ClientError) in
            BlockedAccount(accountID: item.accountID, displayName: item.displayName, email: try contact(item.accountID)?.email)
        }
    }

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
