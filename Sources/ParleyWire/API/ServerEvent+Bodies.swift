/// The bodies of the server's notifications (docs/API.md §9).
extension ServerEvent {
    /// An account came online, went offline, changed its keys, was deleted or disabled.
    public struct Account: WireBody {
        public var accountID: Int64
        public init(accountID: Int64) { self.accountID = accountID }
        public init(from fields: WireFields) throws(WireError) { accountID = try fields.integer("account_id") }
        public var fields: [String: JSONValue] { ["account_id": .int(accountID)] }
        public static let fieldNames = ["account_id"]
    }

    /// A direct conversation started by `creatorID` (as a contact's conversation or as a message request).
    public typealias ConversationStarted = API.ConversationStart

    /// Someone joined a group, or accepted a message request.
    public struct Member: WireBody {
        public var conversationID: Int64
        public var accountID: Int64
        public init(conversationID: Int64, accountID: Int64) {
            self.conversationID = conversationID
            self.accountID = accountID
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            accountID = try fields.integer("account_id")
        }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "account_id": .int(accountID)] }
        public static let fieldNames = ["conversation_id", "account_id"]
    }

    /// Someone left a group, was removed, or deleted their account.
    public struct MemberRemoved: WireBody {
        /// Why: `removed`, `left` or `account_deleted`.
        public var reason: String
        public var conversationID: Int64
        public var accountID: Int64
        public init(conversationID: Int64, accountID: Int64, reason: String) {
            self.conversationID = conversationID
            self.accountID = accountID
            self.reason = reason
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            accountID = try fields.integer("account_id")
            reason = try fields.string("reason", maxBytes: 64)
        }
        public var fields: [String: JSONValue] {
            ["conversation_id": .int(conversationID), "account_id": .int(accountID), "reason": .string(reason)]
        }
        public static let fieldNames = ["conversation_id", "account_id", "reason"]
    }

    /// A conversation was deleted (by a member, or because the other person deleted their account).
    public struct ConversationDeleted: WireBody {
        public var conversationID: Int64
        /// `account_deleted` when the other person deleted their account.
        public var reason: String?
        public init(conversationID: Int64, reason: String? = nil) {
            self.conversationID = conversationID
            self.reason = reason
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            reason = try fields.optionalString("reason", maxBytes: 64)
        }
        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = ["conversation_id": .int(conversationID)]
            out.set("reason", reason.map(JSONValue.string))
            return out
        }
        public static let fieldNames = ["conversation_id", "reason?"]
    }

    /// An invitation to a group: from its creator when it was made, or from the member who added the invitee.
    public struct GroupInvitation: WireBody {
        public var conversationID: Int64
        public var creatorID: Int64?
        public var invitedBy: Int64?
        public init(conversationID: Int64, creatorID: Int64? = nil, invitedBy: Int64? = nil) {
            self.conversationID = conversationID
            self.creatorID = creatorID
            self.invitedBy = invitedBy
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            creatorID = try fields.optionalInteger("creator_id")
            invitedBy = try fields.optionalInteger("invited_by")
        }
        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = ["conversation_id": .int(conversationID)]
            out.set("creator_id", creatorID.map(JSONValue.int))
            out.set("invited_by", invitedBy.map(JSONValue.int))
            return out
        }
        public static let fieldNames = ["conversation_id", "creator_id?", "invited_by?"]
    }

    /// A message arrived for this device: a hint to fetch it, or — pushed (docs/API.md §6.1) — with exactly the
    /// fields `get_messages` lists for it, its envelope included.
    public typealias NewMessage = API.StoredMessage

    /// A recipient device confirmed one of the caller's messages.
    public struct MessageDelivered: WireBody {
        public var messageID: Int64
        public var accountID: Int64
        public var deviceID: UInt32
        public init(messageID: Int64, accountID: Int64, deviceID: UInt32) {
            self.messageID = messageID
            self.accountID = accountID
            self.deviceID = deviceID
        }
        public init(from fields: WireFields) throws(WireError) {
            messageID = try fields.integer("message_id")
            accountID = try fields.integer("account_id")
            deviceID = try fields.device("device_id")
        }
        public var fields: [String: JSONValue] { ["message_id": .int(messageID), "account_id": .int(accountID), "device_id": .int(deviceID)] }
        public static let fieldNames = ["message_id", "account_id", "device_id"]
    }

    /// A member's read mark moved.
    public struct MessagesRead: WireBody {
        public var conversationID: Int64
        public var accountID: Int64
        public var upTo: Int64
        public init(conversationID: Int64, accountID: Int64, upTo: Int64) {
            self.conversationID = conversationID
            self.accountID = accountID
            self.upTo = upTo
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            accountID = try fields.integer("account_id")
            upTo = try fields.integer("up_to")
        }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "account_id": .int(accountID), "up_to": .int(upTo)] }
        public static let fieldNames = ["conversation_id", "account_id", "up_to"]
    }

    /// A message was deleted by its sender.
    public struct MessageDeleted: WireBody {
        public var conversationID: Int64
        public var messageID: Int64
        public init(conversationID: Int64, messageID: Int64) {
            self.conversationID = conversationID
            self.messageID = messageID
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            messageID = try fields.integer("message_id")
        }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "message_id": .int(messageID)] }
        public static let fieldNames = ["conversation_id", "message_id"]
    }

    /// A member added or took back a reaction.
    public struct MessageReacted: WireBody {
        public var conversationID: Int64
        public var messageID: Int64
        public var accountID: Int64
        public var emoji: String
        public var present: Bool
        public init(conversationID: Int64, messageID: Int64, accountID: Int64, emoji: String, present: Bool) {
            self.conversationID = conversationID
            self.messageID = messageID
            self.accountID = accountID
            self.emoji = emoji
            self.present = present
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            messageID = try fields.integer("message_id")
            accountID = try fields.integer("account_id")
            emoji = try fields.string("emoji", maxBytes: 64)
            present = try fields.bool("present")
        }
        public var fields: [String: JSONValue] {
            ["conversation_id": .int(conversationID), "message_id": .int(messageID), "account_id": .int(accountID),
             "emoji": .string(emoji), "present": .bool(present)]
        }
        public static let fieldNames = ["conversation_id", "message_id", "account_id", "emoji", "present"]
    }

    /// A member pinned or unpinned a message.
    public struct PinChange: WireBody {
        public var conversationID: Int64
        public var messageID: Int64
        public var accountID: Int64
        public init(conversationID: Int64, messageID: Int64, accountID: Int64) {
            self.conversationID = conversationID
            self.messageID = messageID
            self.accountID = accountID
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            messageID = try fields.integer("message_id")
            accountID = try fields.integer("account_id")
        }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "message_id": .int(messageID), "account_id": .int(accountID)] }
        public static let fieldNames = ["conversation_id", "message_id", "account_id"]
    }

    /// A device of the account joined (paired or recovered).
    public struct DeviceAdded: WireBody {
        public var deviceID: UInt32
        public var name: String
        public init(deviceID: UInt32, name: String) {
            self.deviceID = deviceID
            self.name = name
        }
        public init(from fields: WireFields) throws(WireError) {
            deviceID = try fields.device("device_id")
            name = try fields.string("name", maxBytes: 1024)
        }
        public var fields: [String: JSONValue] { ["device_id": .int(deviceID), "name": .string(name)] }
        public static let fieldNames = ["device_id", "name"]
    }

    /// A device of the account was removed.
    public struct DeviceRemoved: WireBody {
        public var deviceID: UInt32
        public init(deviceID: UInt32) { self.deviceID = deviceID }
        public init(from fields: WireFields) throws(WireError) { deviceID = try fields.device("device_id") }
        public var fields: [String: JSONValue] { ["device_id": .int(deviceID)] }
        public static let fieldNames = ["device_id"]
    }

    /// The contacts online when this device logged in.
    public struct OnlineUsers: WireBody {
        public var accountIDs: [Int64]
        public init(accountIDs: [Int64]) { self.accountIDs = accountIDs }
        public init(from fields: WireFields) throws(WireError) { accountIDs = try fields.integers("account_ids", maxCount: 1_000_000) }
        public var fields: [String: JSONValue] { ["account_ids": .ints(accountIDs)] }
        public static let fieldNames = ["account_ids"]
    }

    /// Someone this account follows posted waypoints.
    public struct NewWaypoints: WireBody {
        public var ownerID: Int64
        public var routeID: Int64
        public var count: Int64
        public var lastWaypointID: Int64
        public init(ownerID: Int64, routeID: Int64, count: Int64, lastWaypointID: Int64) {
            self.ownerID = ownerID
            self.routeID = routeID
            self.count = count
            self.lastWaypointID = lastWaypointID
        }
        public init(from fields: WireFields) throws(WireError) {
            ownerID = try fields.integer("owner_id")
            routeID = try fields.integer("route_id")
            count = try fields.integer("count")
            lastWaypointID = try fields.integer("last_waypoint_id")
        }
        public var fields: [String: JSONValue] {
            ["owner_id": .int(ownerID), "route_id": .int(routeID), "count": .int(count), "last_waypoint_id": .int(lastWaypointID)]
        }
        public static let fieldNames = ["owner_id", "route_id", "count", "last_waypoint_id"]
    }
}
