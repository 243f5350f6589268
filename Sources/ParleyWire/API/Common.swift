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
}
