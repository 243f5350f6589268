/// An e-mail address has at most this many bytes.
private let emailBytes = 254

/// Conversations, groups and their membership (docs/API.md §5).
extension API {
    static let conversationMethods: [any APIMethod.Type] = [
        CreateConversation.self, ListConversations.self, GetConversation.self, FindConversation.self, AddMember.self, ListInvitations.self,
        AcceptInvitation.self, DeclineInvitation.self, RemoveMember.self, LeaveGroup.self, DeleteConversation.self,
    ]

    /// A conversation is between two people, or a group.
    public enum ConversationKind: String, Sendable, CaseIterable {
        case direct, group
    }

    /// Where a message request stands for the person it was sent to (docs/API.md §5.1).
    public enum RequestState: String, Sendable, CaseIterable {
        case pending, declined
    }

    /// Starts a direct conversation (or finds the one there is) or creates a group (`create_conversation`).
    public enum CreateConversation: APIMethod {
        public static let name = "create_conversation"
        public static let requiresLogin = true
        /// A group has at most this many members besides its creator, invitations not yet answered counted:
        /// `add_member` past it is answered `quota_exceeded`.
        public static let maximumMembers = 256
        /// An account is an active member of at most this many groups: creating another or accepting an invitation
        /// past it is answered `quota_exceeded`. It bounds what `list_conversations` holds of groups (each listed
        /// with up to 257 members), which one account could otherwise grow by 100 empty groups a second.
        public static let maximumGroupsPerAccount = 1_000
        /// At most this many direct conversations an account started wait for the other person's answer (message
        /// requests, docs/API.md §5.1): starting one more with someone who is not a contact is answered
        /// `quota_exceeded` until one is accepted, declined or deleted. One account cannot ask everyone at once.
        public static let maximumUnansweredRequests = 100

        public struct Request: WireBody {
            public var kind: ConversationKind
            /// E-mail addresses of the others: exactly one for a direct conversation.
            public var members: [String]
            public init(kind: ConversationKind, members: [String]) {
                self.kind = kind
                self.members = members
            }
            public init(from fields: WireFields) throws(WireError) {
                kind = try fields.choice("kind")
                members = try fields.strings("members", maxCount: maximumMembers, maxBytes: emailBytes)
                guard kind == .group || members.count == 1 else {
                    throw .invalid(fields.name(of: "members"), "a direct conversation has exactly one other member")
                }
            }
            public var fields: [String: JSONValue] { ["kind": .string(kind.rawValue), "members": .strings(members)] }
            public static let fieldNames = ["kind", "members"]
        }

        public struct Response: WireBody {
            public var conversationID: Int64
            /// False when the direct conversation existed already.
            public var created: Bool
            /// The account of each address in the request's `members`, in its order (nil from an older server), so
            /// the creator's device knows whom it invited by the address it used.
            public var memberIDs: [Int64]?
            public init(conversationID: Int64, created: Bool, memberIDs: [Int64]? = nil) {
                self.conversationID = conversationID
                self.created = created
                self.memberIDs = memberIDs
            }
            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.integer("conversation_id")
                created = try fields.bool("created")
                memberIDs = fields.has("member_ids") ? try fields.integers("member_ids", maxCount: maximumMembers, in: 1...Int64.max) : nil
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["conversation_id": .int(conversationID), "created": .bool(created)]
                out.set("member_ids", memberIDs.map { .ints($0) })
                return out
            }
            public static let fieldNames = ["conversation_id", "created", "member_ids?"]
        }
    }

    /// One conversation as `list_conversations` lists it.
    public struct ConversationSummary: WireBody {
        public var conversationID: Int64
        public var kind: ConversationKind
        public var creatorID: Int64
        /// Active members, the caller included.
        public var members: [Int64]
        public var unread: Int
        public var createdAt: Int64
        public var lastMessageAt: Int64?
        /// `pending` while the caller owes an answer to the request this conversation is.
        public var request: RequestState?

        public init(
            conversationID: Int64, kind: ConversationKind, creatorID: Int64, members: [Int64], unread: Int, createdAt: Int64,
            lastMessageAt: Int64? = nil, request: RequestState? = nil
        ) {
            self.conversationID = conversationID
            self.kind = kind
            self.creatorID = creatorID
            self.members = members
            self.unread = unread
            self.createdAt = createdAt
            self.lastMessageAt = lastMessageAt
            self.request = request
        }

        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            kind = try fields.choice("kind")
            creatorID = try fields.integer("creator_id")
            members = try fields.integers("members", maxCount: .max)
            unread = Int(try fields.integer("unread"))
            createdAt = try fields.integer("created_at")
            lastMessageAt = try fields.optionalInteger("last_message_at")
            request = try fields.optionalChoice("request")
        }

        public var fields: [String: JSONValue] {
            var out: [String: JSONValue] = [
                "conversation_id": .int(conversationID), "kind": .string(kind.rawValue), "creator_id": .int(creatorID),
                "members": .ints(members), "unread": .int(unread), "created_at": .int(createdAt),
            ]
            out.set("last_message_at", lastMessageAt.map(JSONValue.int))
            out.set("request", request.map { .string($0.rawValue) })
            return out
        }
        public static let fieldNames = [
            "conversation_id", "kind", "creator_id", "members", "unread", "created_at", "last_message_at?", "request?",
        ]
    }

    /// The caller's conversations, most recent first (`list_conversations`).
    public enum ListConversations: APIMethod {
        public static let name = "list_conversations"
        public static let requiresLogin = true
        public typealias Request = NoFields

        public struct Response: WireBody {
            public var conversations: [ConversationSummary]
            public init(conversations: [ConversationSummary]) { self.conversations = conversations }
            public init(from fields: WireFields) throws(WireError) { conversations = try fields.list("conversations", maxCount: .max) }
            public var fields: [String: JSONValue] { ["conversations": .list(conversations)] }
            public static let fieldNames = ["conversations"]
        }
    }

    /// One of the caller's conversations as `list_conversations` lists it (`get_conversation`): what a client reads
    /// when one conversation changed, without the whole list.
    public enum GetConversation: APIMethod {
        public static let name = "get_conversation"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = ConversationSummary
    }

    /// The direct conversation with someone, if there is one (`find_conversation`).
    public enum FindConversation: APIMethod {
        public static let name = "find_conversation"
        public static let requiresLogin = true
        public struct Request: WireBody {
            public var email: String
            public init(email: String) { self.email = email }
            public init(from fields: WireFields) throws(WireError) { email = try fields.string("email", maxBytes: emailBytes) }
            public var fields: [String: JSONValue] { ["email": .string(email)] }
            public static let fieldNames = ["email"]
        }
        public typealias Response = ConversationRef
    }

    /// Invites someone to a group; any active member may (`add_member`).
    public enum AddMember: APIMethod {
        public static let name = "add_member"
        public static let requiresLogin = true
        /// A person holds at most this many unanswered invitations to groups one account made; inviting them to
        /// another of its groups (`create_conversation` or `add_member`) is answered `quota_exceeded` until they
        /// accept or decline one. One account cannot bury a person under invitations.
        public static let maximumPendingPerCreator = 10

        public struct Request: WireBody {
            public var conversationID: Int64
            public var email: String
            public init(conversationID: Int64, email: String) {
                self.conversationID = conversationID
                self.email = email
            }
            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.integer("conversation_id")
                email = try fields.string("email", maxBytes: emailBytes)
            }
            public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "email": .string(email)] }
            public static let fieldNames = ["conversation_id", "email"]
        }

        public struct Response: WireBody {
            /// The invitee.
            public var accountID: Int64
            /// Always "invited".
            public var status: String
            public init(accountID: Int64, status: String = "invited") {
                self.accountID = accountID
                self.status = status
            }
            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                status = try fields.string("status", maxBytes: 16)
            }
            public var fields: [String: JSONValue] { ["account_id": .int(accountID), "status": .string(status)] }
            public static let fieldNames = ["account_id", "status"]
        }
    }

    /// A conversation and who created it: an invitation `list_invitations` lists, and the body of the
    /// `conversation_created` and `message_request` notifications.
    public struct ConversationStart: WireBody {
        public var conversationID: Int64
        public var creatorID: Int64
        public init(conversationID: Int64, creatorID: Int64) {
            self.conversationID = conversationID
            self.creatorID = creatorID
        }
        public init(from fields: WireFields) throws(WireError) {
            conversationID = try fields.integer("conversation_id")
            creatorID = try fields.integer("creator_id")
        }
        public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "creator_id": .int(creatorID)] }
        public static let fieldNames = ["conversation_id", "creator_id"]
    }

    /// Invitations waiting for the caller's answer (`list_invitations`).
    public enum ListInvitations: APIMethod {
        public static let name = "list_invitations"
        public static let requiresLogin = true
        public typealias Request = NoFields

        public struct Response: WireBody {
            public var invitations: [ConversationStart]
            public init(invitations: [ConversationStart]) { self.invitations = invitations }
            public init(from fields: WireFields) throws(WireError) { invitations = try fields.list("invitations", maxCount: .max) }
            public var fields: [String: JSONValue] { ["invitations": .list(invitations)] }
            public static let fieldNames = ["invitations"]
        }
    }

    /// Joins a group the caller is invited to (`accept_invitation`).
    public enum AcceptInvitation: APIMethod {
        public static let name = "accept_invitation"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }

    /// Declines an invitation to a group (`decline_invitation`).
    public enum DeclineInvitation: APIMethod {
        public static let name = "decline_invitation"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }

    /// Removes a member or invitee from a group; its creator only (`remove_member`).
    public enum RemoveMember: APIMethod {
        public static let name = "remove_member"
        public static let requiresLogin = true

        public struct Request: WireBody {
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
        public typealias Response = NoFields
    }

    /// Leaves a group (`leave_group`).
    public enum LeaveGroup: APIMethod {
        public static let name = "leave_group"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }

    /// Deletes a conversation: a direct one by either person, a group by its creator (`delete_conversation`).
    public enum DeleteConversation: APIMethod {
        public static let name = "delete_conversation"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = NoFields
    }
}
