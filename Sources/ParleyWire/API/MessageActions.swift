/// Read marks, reactions, pins, deletion, catching up, forwarding and metadata search (docs/API.md §6,
/// "Message actions").
extension API {
    /// A message's metadata, without any ciphertext (pinned, deleted and found messages).
    public struct MessageSummary: WireBody {
        public var messageID: Int64
        public var conversationID: Int64
        public var senderID: Int64
        public var timestamp: Int64
        public var kind: String
        public var deletedAt: Int64?
        public var pinnedAt: Int64?

        public init(
            messageID: Int64, conversationID: Int64, senderID: Int64, timestamp: Int64, kind: String,
            deletedAt: Int64? = nil, pinnedAt: Int64? = nil
        ) {
            self.messageID = messageID
            self.conversationID = conversationID
            self.senderID = senderID
            self.timestamp = timestamp
            self.kind = kind
            self.deletedAt = deletedAt
            self.pinnedAt = pinnedAt
        }

        public init(from fields: WireFields) throws(WireError) {
            messageID = try fields.integer("message_id")
            conversationID = try fields.integer("conversation_id")
            senderID = try fields.integer("sender_id")
            timestamp = try fields.integer("timestamp")
            kind = try fields.string("kind", maxBytes: 16)
            deletedAt = try fields.optionalInteger("deleted_at")
            pinnedAt = try fields.optionalInteger("pinned_at")
        }

        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "message_id": .int(messageID), "conversation_id": .int(conversationID), "sender_id": .int(senderID),
                "timestamp": .int(timestamp), "kind": .string(kind),
            ]
            out.set("deleted_at", deletedAt.map(JSONValue.int))
            out.set("pinned_at", pinnedAt.map(JSONValue.int))
            return out
        }
        public static let fieldNames = ["message_id", "conversation_id", "sender_id", "timestamp", "kind", "deleted_at?", "pinned_at?"]
    }

    /// A list of message metadata (`get_pinned_messages`, `get_deleted_since`, `search_messages`).
    public struct MessageSummaries: WireBody {
        /// A list holds at most this many (the largest search).
        public static let maximumCount = 500
        public var messages: [MessageSummary]
        public init(messages: [MessageSummary]) { self.messages = messages }
        public init(from fields: WireFields) throws(WireError) { messages = try fields.list("messages", maxCount: .max) }
        public var fields: [String: JSONValue] { ["messages": .list(messages)] }
        public static let fieldNames = ["messages"]
    }

    /// Where the caller's read mark now is (it never moves back).
    public struct ReadMark: WireBody {
        public var upTo: Int64
        public init(upTo: Int64) { self.upTo = upTo }
        public init(from fields: WireFields) throws(WireError) { upTo = try fields.integer("up_to") }
        public var fields: [String: JSONValue] { ["up_to": .int(upTo)] }
        public static let fieldNames = ["up_to"]
    }

    /// Marks everything up to a message read; members get `messages_read` (`mark_read`).
    public enum MarkRead: APIMethod {
        public static let name = "mark_read"
        public static let requiresLogin = true
        public typealias Request = MessageRef
        public typealias Response = ReadMark
    }

    /// Marks a whole conversation read (`mark_conversation_read`).
    public enum MarkConversationRead: APIMethod {
        public static let name = "mark_conversation_read"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = ReadMark
    }

    /// Toggles a reaction to a message (`react_message`).
    public enum ReactMessage: APIMethod {
        public static let name = "react_message"
        public static let requiresLogin = true
        /// The reactions there are.
        public static let reactions = ["👍", "❤️", "😂", "😮", "😢", "👎"]

        public struct Request: WireBody {
            public var messageID: Int64
            public var emoji: String
            public init(messageID: Int64, emoji: String) {
                self.messageID = messageID
                self.emoji = emoji
            }
            public init(from fields: WireFields) throws(WireError) {
                messageID = try fields.integer("message_id")
                emoji = try fields.string("emoji", maxBytes: 16)
                guard ReactMessage.reactions.contains(emoji) else {
                    throw .invalid(fields.name(of: "emoji"), "must be one of \(ReactMessage.reactions.sorted().joined(separator: " "))")
                }
            }
            public var fields: [String: JSONValue] { ["message_id": .int(messageID), "emoji": .string(emoji)] }
            public static let fieldNames = ["message_id", "emoji"]
        }

        public struct Response: WireBody {
            /// Whether the caller's reaction is there now.
            public var present: Bool
            public init(present: Bool) { self.present = present }
            public init(from fields: WireFields) throws(WireError) { present = try fields.bool("present") }
            public var fields: [String: JSONValue] { ["present": .bool(present)] }
            public static let fieldNames = ["present"]
        }
    }

    /// Pins or unpins a message for everyone in the conversation (`pin_message`).
    public enum PinMessage: APIMethod {
        public static let name = "pin_message"
        public static let requiresLogin = true
        /// Messages one conversation may have pinned at once (`quota_exceeded` for one more).
        public static let maximumPinned = 100
        public struct Request: WireBody {
            public var messageID: Int64
            public var pinned: Bool
            public init(messageID: Int64, pinned: Bool) {
                self.messageID = messageID
                self.pinned = pinned
            }
            public init(from fields: WireFields) throws(WireError) {
                messageID = try fields.integer("message_id")
                pinned = try fields.bool("pinned")
            }
            public var fields: [String: JSONValue] { ["message_id": .int(messageID), "pinned": .bool(pinned)] }
            public static let fieldNames = ["message_id", "pinned"]
        }
        public typealias Response = NoFields
    }

    /// A conversation's pinned messages, oldest pin first (`get_pinned_messages`).
    public enum GetPinnedMessages: APIMethod {
        public static let name = "get_pinned_messages"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = MessageSummaries
    }

    /// Deletes one of the caller's messages for everyone (`delete_message`).
    public enum DeleteMessage: APIMethod {
        public static let name = "delete_message"
        public static let requiresLogin = true
        public typealias Request = MessageRef
        public typealias Response = NoFields
    }

    /// One reaction: who, and which.
    public struct Reaction: WireBody {
        public var accountID: Int64
        public var emoji: String
        public init(accountID: Int64, emoji: String) {
            self.accountID = accountID
            self.emoji = emoji
        }
        public init(from fields: WireFields) throws(WireError) {
            accountID = try fields.integer("account_id")
            emoji = try fields.string("emoji", maxBytes: 16)
        }
        public var fields: [String: JSONValue] { ["account_id": .int(accountID), "emoji": .string(emoji)] }
        public static let fieldNames = ["account_id", "emoji"]
    }

    /// A message's reactions, pin and deletion, as `get_message_state` reports them; for the caller's own message
    /// also who has it and who read it, so a sender who was away learns what the live notifications said.
    public struct MessageState: WireBody {
        public var messageID: Int64
        public var pinned: Bool
        public var deleted: Bool
        public var reactions: [Reaction]
        /// The caller's own message: the other accounts a device of confirmed it (nil: not the caller's).
        public var deliveredTo: [Int64]?
        /// The caller's own message: the other members whose read mark reached it (nil: not the caller's).
        public var readBy: [Int64]?
        public init(messageID: Int64, pinned: Bool, deleted: Bool, reactions: [Reaction], deliveredTo: [Int64]? = nil, readBy: [Int64]? = nil) {
            self.messageID = messageID
            self.pinned = pinned
            self.deleted = deleted
            self.reactions = reactions
            self.deliveredTo = deliveredTo
            self.readBy = readBy
        }
        public init(from fields: WireFields) throws(WireError) {
            messageID = try fields.integer("message_id")
            pinned = try fields.bool("pinned")
            deleted = try fields.bool("deleted")
            reactions = try fields.list("reactions", maxCount: .max)
            // A group has at most its creator and `maximumMembers` others.
            let accounts = API.CreateConversation.maximumMembers + 1
            deliveredTo = fields.has("delivered_to") ? try fields.integers("delivered_to", maxCount: accounts, in: 1...Int64.max) : nil
            readBy = fields.has("read_by") ? try fields.integers("read_by", maxCount: accounts, in: 1...Int64.max) : nil
        }
        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "message_id": .int(messageID), "pinned": .bool(pinned), "deleted": .bool(deleted), "reactions": .list(reactions),
            ]
            out.set("delivered_to", deliveredTo.map { .ints($0) })
            out.set("read_by", readBy.map { .ints($0) })
            return out
        }
        public static let fieldNames = ["message_id", "pinned", "deleted", "reactions", "delivered_to?", "read_by?"]
    }

    /// Reactions, pin and deletion of up to 100 messages the caller can see (`get_message_state`).
    public enum GetMessageState: APIMethod {
        public static let name = "get_message_state"
        public static let requiresLogin = true
        /// At most this many ids in one request.
        public static let maximumIDs = 100

        public struct Request: WireBody {
            public var messageIDs: [Int64]
            public init(messageIDs: [Int64]) { self.messageIDs = messageIDs }
            public init(from fields: WireFields) throws(WireError) {
                messageIDs = try fields.integers("message_ids", maxCount: GetMessageState.maximumIDs, in: 1...Int64.max)
            }
            public var fields: [String: JSONValue] { ["message_ids": .ints(messageIDs)] }
            public static let fieldNames = ["message_ids"]
        }

        public struct Response: WireBody {
            public var messages: [MessageState]
            public init(messages: [MessageState]) { self.messages = messages }
            public init(from fields: WireFields) throws(WireError) { messages = try fields.list("messages", maxCount: GetMessageState.maximumIDs) }
            public var fields: [String: JSONValue] { ["messages": .list(messages)] }
            public static let fieldNames = ["messages"]
        }
    }

    /// Messages deleted after a time in the caller's conversations (`get_deleted_since`).
    public enum GetDeletedSince: APIMethod {
        public static let name = "get_deleted_since"
        public static let requiresLogin = true
        public struct Request: WireBody {
            /// Server time (ms); 0 when absent.
            public var since: Int64?
            public init(since: Int64? = nil) { self.since = since }
            public init(from fields: WireFields) throws(WireError) { since = try fields.optionalInteger("since") }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("since", since.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["since?"]
        }
        public typealias Response = MessageSummaries
    }

    /// Sends a copy of a readable message to a conversation; the source is recorded (`forward_message`).
    public enum ForwardMessage: APIMethod {
        public static let name = "forward_message"
        public static let requiresLogin = true

        /// The source's `message_id` beside the fields of `send_message` for the copy.
        public struct Request: WireBody {
            public var messageID: Int64
            public var message: SendMessage.Request
            public init(messageID: Int64, message: SendMessage.Request) {
                self.messageID = messageID
                self.message = message
            }
            public init(from fields: WireFields) throws(WireError) {
                messageID = try fields.integer("message_id")
                message = try SendMessage.Request(from: fields)
            }
            public var fields: [String: JSONValue] {
                var out = message.fields
                out["message_id"] = .int(messageID)
                return out
            }
            public static let fieldNames = ["message_id"] + SendMessage.Request.fieldNames
        }
        public typealias Response = SendMessage.Response
    }

    /// Metadata of messages in the caller's conversations, newest first; never content (`search_messages`).
    public enum SearchMessages: APIMethod {
        public static let name = "search_messages"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var conversationID: Int64?
            public var senderID: Int64?
            public var kind: String?
            /// Server times (ms).
            public var from: Int64?
            public var to: Int64?
            /// 1–500; 100 when absent.
            public var limit: Int?

            public init(conversationID: Int64? = nil, senderID: Int64? = nil, kind: String? = nil, from: Int64? = nil, to: Int64? = nil, limit: Int? = nil) {
                self.conversationID = conversationID
                self.senderID = senderID
                self.kind = kind
                self.from = from
                self.to = to
                self.limit = limit
            }

            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.optionalInteger("conversation_id")
                senderID = try fields.optionalInteger("sender_id")
                kind = try fields.optionalString("kind", maxBytes: 16)
                from = try fields.optionalInteger("from_ts")
                to = try fields.optionalInteger("to_ts")
                limit = try fields.optionalInteger("limit", in: 1...Int64(MessageSummaries.maximumCount)).map { Int($0) }
            }

            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("conversation_id", conversationID.map(JSONValue.int))
                out.set("sender_id", senderID.map(JSONValue.int))
                out.set("kind", kind.map(JSONValue.string))
                out.set("from_ts", from.map(JSONValue.int))
                out.set("to_ts", to.map(JSONValue.int))
                out.set("limit", limit.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["conversation_id?", "sender_id?", "kind?", "from_ts?", "to_ts?", "limit?"]
        }
        public typealias Response = MessageSummaries
    }
}
