/// Message requests and the block list (docs/API.md §5.1).
extension API {
    static let requestMethods: [any APIMethod.Type] = [
        ListRequests.self, AcceptRequest.self, DeclineRequest.self, BlockAccount.self, UnblockAccount.self, ListBlocked.self,
    ]

    /// A direct conversation someone who is not a contact started with the caller, with who started it.
    public struct MessageRequest: WireBody {
        public var conversationID: Int64
        /// Who started it: their account, e-mail and display name.
        public var accountID: Int64
        public var email: String
        public var displayName: String
        public var createdAt: Int64
        public var lastMessageAt: Int64?

        public init(conversationID: Int64, accountID: Int64, email: String, displayName: String, createdAt: Int64, lastMessageAt: Int64? = nil) {
            self.conversationID = conversationID
            self.accountID = accountID
            self.email = email
            self.displayName = displayName
            self.createdAt = createdAt
            self.lastMessageAt = lastMessageAt
        }

        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            accountID = try fields.integer("account_id")
            email = try fields.string("email", maxBytes: 254)
            displayName = try fields.string("display_name", maxBytes: 1024)
            createdAt = try fields.integer("created_at")
            lastMessageAt = try fields.optionalInteger("last_message_at")
        }

        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "conversation_id": .int(conversationID), "account_id": .int(accountID), "email": .string(email),
                "display_name": .string(displayName), "created_at": .int(createdAt),
            ]
            out.set("last_message_at", lastMessageAt.map(JSONValue.int))
            return out
        }
        public static let fieldNames = ["conversation_id", "account_id", "email", "display_name", "created_at", "last_message_at?"]
    }

    /// Message requests waiting for the caller's answer, newest activity first (`list_requests`).
    public enum ListRequests: APIMethod {
        public static let name = "list_requests"
        public static let requiresLogin = true
        public typealias Request = NoFields

        public struct Response: WireBody {
            public var requests: [MessageRequest]
            public init(requests: [MessageRequest]) { self.requests = requests }
            public init(from fields: WireFields) throws(WireError) { requests = try fields.list("requests", maxCount: .max) }
            public var fields: [String: JSONValue] { ["requests": .list(requests)] }
            public static let fieldNames = ["requests"]
        }
    }

    /// Accepts the request a conversation is: its starter becomes a contact (`accept_request`).
    public enum AcceptRequest: APIMethod {
        public static let name = "accept_request"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }

    /// Declines a pending request: what its starter sends next is withheld (`decline_request`).
    public enum DeclineRequest: APIMethod {
        public static let name = "decline_request"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }

    /// Puts someone on the caller's block list (`block_account`).
    public enum BlockAccount: APIMethod {
        public static let name = "block_account"
        public static let requiresLogin = true
        /// A block list holds at most this many accounts.
        public static let maximumBlocked = 10_000
        public typealias Request = AccountChoice
        public typealias Response = NoFields
    }

    /// Takes someone off the caller's block list (`unblock_account`).
    public enum UnblockAccount: APIMethod {
        public static let name = "unblock_account"
        public static let requiresLogin = true
        public typealias Request = AccountChoice
        public typealias Response = NoFields
    }

    /// Someone on the caller's block list.
    public struct BlockedAccount: WireBody {
        public var accountID: Int64
        public var displayName: String
        public init(accountID: Int64, displayName: String) {
            self.accountID = accountID
            self.displayName = displayName
        }
        public init(from fields: WireFields) throws(WireError) {
            accountID = try fields.integer("account_id")
            displayName = try fields.string("display_name", maxBytes: 1024)
        }
        public var fields: [String: JSONValue] { ["account_id": .int(accountID), "display_name": .string(displayName)] }
        public static let fieldNames = ["account_id", "display_name"]
    }

    /// The caller's block list, in the order blocked (`list_blocked`).
    public enum ListBlocked: APIMethod {
        public static let name = "list_blocked"
        public static let requiresLogin = true
        public typealias Request = NoFields

        public struct Response: WireBody {
            public var blocked: [BlockedAccount]
            public init(blocked: [BlockedAccount]) { self.blocked = blocked }
            public init(from fields: WireFields) throws(WireError) { blocked = try fields.list("blocked", maxCount: BlockAccount.maximumBlocked) }
            public var fields: [String: JSONValue] { ["blocked": .list(blocked)] }
            public static let fieldNames = ["blocked"]
        }
    }
}
