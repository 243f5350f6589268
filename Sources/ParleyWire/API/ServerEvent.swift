/// A notification the server sends (docs/API.md §9): a hint about the store, never the truth itself. Both sides
/// use this one enum, so an event's name and fields are written in one place.
public enum ServerEvent: Sendable, Equatable {
    case newMessage(NewMessage)
    case messageDelivered(MessageDelivered)
    case messagesRead(MessagesRead)
    case messageDeleted(MessageDeleted)
    case messageReacted(MessageReacted)
    case messagePinned(PinChange)
    case messageUnpinned(PinChange)
    case conversationCreated(ConversationStarted)
    case messageRequest(ConversationStarted)
    case requestAccepted(Member)
    case groupInvitation(GroupInvitation)
    case memberAdded(Member)
    case memberRemoved(MemberRemoved)
    case conversationDeleted(ConversationDeleted)
    case accountDeleted(Account)
    case accountDisabled(Account)
    case deviceAdded(DeviceAdded)
    case deviceRemoved(DeviceRemoved)
    case onlineUsers(OnlineUsers)
    case userOnline(Account)
    case userOffline(Account)
    case keysUpdated(Account)
    case profileUpdated(Account)
    case newWaypoints(NewWaypoints)

    /// The event's name on the wire (`event`).
    public var name: String {
        switch self {
        case .newMessage: "new_message"
        case .messageDelivered: "message_delivered"
        case .messagesRead: "messages_read"
        case .messageDeleted: "message_deleted"
        case .messageReacted: "message_reacted"
        case .messagePinned: "message_pinned"
        case .messageUnpinned: "message_unpinned"
        case .conversationCreated: "conversation_created"
        case .messageRequest: "message_request"
        case .requestAccepted: "request_accepted"
        case .groupInvitation: "group_invitation"
        case .memberAdded: "member_added"
        case .memberRemoved: "member_removed"
        case .conversationDeleted: "conversation_deleted"
        case .accountDeleted: "account_deleted"
        case .accountDisabled: "account_disabled"
        case .deviceAdded: "device_added"
        case .deviceRemoved: "device_removed"
        case .onlineUsers: "online_users"
        case .userOnline: "user_online"
        case .userOffline: "user_offline"
        case .keysUpdated: "keys_updated"
        case .profileUpdated: "profile_updated"
        case .newWaypoints: "new_waypoints"
        }
    }

    /// The event's body.
    public var body: any WireBody {
        switch self {
        case .newMessage(let body): body
        case .messageDelivered(let body): body
        case .messagesRead(let body): body
        case .messageDeleted(let body): body
        case .messageReacted(let body): body
        case .messagePinned(let body), .messageUnpinned(let body): body
        case .conversationCreated(let body), .messageRequest(let body): body
        case .requestAccepted(let body), .memberAdded(let body): body
        case .groupInvitation(let body): body
        case .memberRemoved(let body): body
        case .conversationDeleted(let body): body
        case .accountDeleted(let body), .accountDisabled(let body), .userOnline(let body), .userOffline(let body), .keysUpdated(let body),
             .profileUpdated(let body): body
        case .deviceAdded(let body): body
        case .deviceRemoved(let body): body
        case .onlineUsers(let body): body
        case .newWaypoints(let body): body
        }
    }

    /// The event's fields on the wire (without `type` and `event`).
    public var fields: [String: JSONValue] { body.fields }

    /// Reads a notification; nil for an event this version does not know (a newer server's: ignored, as hints
    /// may be), an error naming the field for a known event that is malformed.
    public init?(name: String, fields: [String: JSONValue]) throws(WireError) {
        guard let entry = Self.byName[name] else { return nil }
        self = try entry.read(WireFields(fields))
    }

    /// One known event: its name, the fields its body carries, and how to read it.
    public struct Entry: Sendable {
        public let name: String
        public let fieldNames: [String]
        let read: @Sendable (WireFields) throws(WireError) -> ServerEvent

        init<B: WireBody>(_ name: String, _ body: B.Type, _ make: @escaping @Sendable (B) -> ServerEvent) {
            self.name = name
            self.fieldNames = B.fieldNames
            self.read = { fields throws(WireError) in make(try B(from: fields)) }
        }
    }

    /// Every event, in docs/API.md's order.
    public static let catalog: [Entry] = [
        Entry("new_message", NewMessage.self, ServerEvent.newMessage),
        Entry("message_delivered", MessageDelivered.self, ServerEvent.messageDelivered),
        Entry("messages_read", MessagesRead.self, ServerEvent.messagesRead),
        Entry("message_deleted", MessageDeleted.self, ServerEvent.messageDeleted),
        Entry("message_reacted", MessageReacted.self, ServerEvent.messageReacted),
        Entry("message_pinned", PinChange.self, ServerEvent.messagePinned),
        Entry("message_unpinned", PinChange.self, ServerEvent.messageUnpinned),
        Entry("conversation_created", ConversationStarted.self, ServerEvent.conversationCreated),
        Entry("message_request", ConversationStarted.self, ServerEvent.messageRequest),
        Entry("request_accepted", Member.self, ServerEvent.requestAccepted),
        Entry("group_invitation", GroupInvitation.self, ServerEvent.groupInvitation),
        Entry("member_added", Member.self, ServerEvent.memberAdded),
        Entry("member_removed", MemberRemoved.self, ServerEvent.memberRemoved),
        Entry("conversation_deleted", ConversationDeleted.self, ServerEvent.conversationDeleted),
        Entry("account_deleted", Account.self, ServerEvent.accountDeleted),
        Entry("account_disabled", Account.self, ServerEvent.accountDisabled),
        Entry("device_added", DeviceAdded.self, ServerEvent.deviceAdded),
        Entry("device_removed", DeviceRemoved.self, ServerEvent.deviceRemoved),
        Entry("online_users", OnlineUsers.self, ServerEvent.onlineUsers),
        Entry("user_online", Account.self, ServerEvent.userOnline),
        Entry("user_offline", Account.self, ServerEvent.userOffline),
        Entry("keys_updated", Account.self, ServerEvent.keysUpdated),
        Entry("profile_updated", Account.self, ServerEvent.profileUpdated),
        Entry("new_waypoints", NewWaypoints.self, ServerEvent.newWaypoints),
    ]

    private static let byName: [String: Entry] = Dictionary(catalog.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
}
