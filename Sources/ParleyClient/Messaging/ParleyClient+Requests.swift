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
        let requests = try await call("list_requests").objects("requests").map { item throws(ClientError) in
            MessageRequest(
                conversationID: try item.int("conversation_id"), accountID: try item.int("account_id"),
                email: try item.string("email"), displayName: try item.string("display_name"),
                lastMessageAt: item.optionalInt("last_message_at"))
        }
        for request in requests {
            try remember(Contact(accountID: request.accountID, email: request.email, displayName: request.displayName))
        }
        return requests
    }

    /// Accepts a message request: the starter becomes a contact (profile, presence, read marks).
    public func acceptRequest(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call("accept_request", ["conversation_id": .int(conversationID)])
        try await refreshConversations()
    }

    /// Declines a message request: the conversation leaves your list and what its starter sends next never
    /// reaches you. The starter is not told. (Writing to them later opens it again.)
    public func declineRequest(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call("decline_request", ["conversation_id": .int(conversationID)])
        try await refreshConversations()
    }

    /// Blocks someone by e-mail or account id: their messages never reach you, in any conversation; presence
    /// ends both ways; a request from them is declined. They are not told. The answer is the same whether or
    /// not such an account exists.
    public func block(_ person: Person) async throws(ClientError) {
        _ = try await call("block_account", person.fields)
        try await refreshConversations()
    }

    /// Takes someone off your block list.
    public func unblock(_ person: Person) async throws(ClientError) {
        _ = try await call("unblock_account", person.fields)
    }

    /// Your block list, in the order you blocked them.
    public func blockedAccounts() async throws(ClientError) -> [BlockedAccount] {
        try await call("list_blocked").objects("blocked").map { item throws(ClientError) in
            let id = try item.int("account_id")
            return BlockedAccount(accountID: id, displayName: try item.string("display_name"), email: try contact(id)?.email)
        }
    }

    /// A person named by e-mail or by account id.
    public enum Person: Sendable, Equatable {
        case email(String)
        case account(Int64)

        var fields: [String: JSONValue] {
            switch self {
            case .email(let email): ["email": .string(email.lowercased())]
            case .account(let id): ["account_id": .int(id)]
            }
        }
    }
}
