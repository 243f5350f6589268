/// Bodies several methods share.
extension API {
    /// A request that names one conversation.
    public struct ConversationRef: WireBody {
        public var conversationID: Int64
        public init(conversationID: Int64) { self.conversationID = conversationID }
        public init(from fields: WireFields) throws(WireError) { conversationID = try fields.integer("conversation_id") }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID)] }
        public static let fieldNames = ["conversation_id"]
    }

    /// A request that names one message.
    public struct MessageRef: WireBody {
        public var messageID: Int64
        public init(messageID: Int64) { self.messageID = messageID }
        public init(from fields: WireFields) throws(WireError) { messageID = try fields.integer("message_id") }
        public var fields: [String: JSONValue] { ["message_id": .int(messageID)] }
        public static let fieldNames = ["message_id"]
    }

    /// A person named either by e-mail (`email`) or by account id (`account_id`); e-mail wins when both are given.
    public enum AccountChoice: WireBody {
        case email(String)
        case accountID(Int64)

        public init(from fields: WireFields) throws(WireError) {
            if fields.has("email") {
                self = .email(try fields.string("email", maxBytes: 254))
            } else {
                self = .accountID(try fields.integer("account_id", in: 1...Int64.max))
            }
        }
        public var fields: [String: JSONValue] {
            switch self {
            case .email(let email): ["email": .string(email)]
            case .accountID(let id): ["account_id": .int(id)]
            }
        }
        public static let fieldNames = ["email?", "account_id?"]
    }
}
