/// Profiles and avatars (docs/API.md §7).
extension API {
    /// Who may see a profile field; the server enforces it.
    public enum Visibility: String, Sendable, CaseIterable {
        case everyone, contacts, nobody
    }

    /// A profile field with its visibility, as the owner sets it and sees it.
    public struct OwnField: WireBody {
        public var value: String
        public var visibility: Visibility
        public init(value: String, visibility: Visibility) {
            self.value = value
            self.visibility = visibility
        }
        public init(from fields: WireFields) throws(WireError) {
            value = try fields.string("value", maxBytes: 256)
            visibility = try fields.choice("visibility")
        }
        public var fields: [String: JSONValue] { ["value": .string(value), "visibility": .string(visibility.rawValue)] }
        public static let fieldNames = ["value", "visibility"]
    }

    /// Someone's profile, or the caller's own (`get_profile`).
    public enum GetProfile: APIMethod {
        public static let name = "get_profile"
        public static let requiresLogin = true

        public struct Request: WireBody {
            /// The account; the caller's own when nil.
            public var accountID: Int64?
            public init(accountID: Int64? = nil) { self.accountID = accountID }
            public init(from fields: WireFields) throws(WireError) { accountID = try fields.optionalInteger("account_id") }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("account_id", accountID.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["account_id?"]
        }

        public struct Response: WireBody {
            public var accountID: Int64
            public var displayName: String
            /// Fields others may see, by name.
            public var shown: [String: String]
            /// The owner's own fields with their visibility (only in the owner's own profile).
            public var own: [String: OwnField]

            public init(accountID: Int64, displayName: String, shown: [String: String] = [:], own: [String: OwnField] = [:]) {
                self.accountID = accountID
                self.displayName = displayName
                self.shown = shown
                self.own = own
            }

            public init(from fields: WireFields) throws(WireError) {
                accountID = try fields.integer("account_id")
                displayName = try fields.string("display_name", maxBytes: 1024)
                shown = [:]
                own = [:]
                let visible = try fields.object("fields")
                for name in visible.values.keys {
                    if case .object = visible.values[name] {
                        own[name] = try visible.nested(name)
                    } else {
                        shown[name] = try visible.string(name, maxBytes: 256)
                    }
                }
            }

            public var fields: [String: JSONValue] {
                var visible = shown.mapValues(JSONValue.string)
                for (name, field) in own { visible[name] = field.json }
                return ["account_id": .int(accountID), "display_name": .string(displayName), "fields": .object(visible)]
            }
            public static let fieldNames = ["account_id", "display_name", "fields"]
        }
    }

    /// Sets the display name and/or profile fields; an empty value removes a field (`update_profile`).
    public enum UpdateProfile: APIMethod {
        public static let name = "update_profile"
        public static let requiresLogin = true
        /// The fields a profile can have.
        public static let fieldNames: Set<String> = ["username", "email", "phone", "location"]

        public struct Request: WireBody {
            public var displayName: String?
            public var profileFields: [String: OwnField]

            public init(displayName: String? = nil, profileFields: [String: OwnField] = [:]) {
                self.displayName = displayName
                self.profileFields = profileFields
            }

            public init(from fields: WireFields) throws(WireError) {
                displayName = try fields.optionalString("display_name", maxBytes: 128)
                profileFields = [:]
                guard fields.has("fields") else { return }
                let given = try fields.object("fields")
                for name in given.values.keys.sorted() {
                    guard UpdateProfile.fieldNames.contains(name) else {
                        throw .invalid("fields.\(name)", "is not a profile field (\(UpdateProfile.fieldNames.sorted().joined(separator: ", ")))")
                    }
                    profileFields[name] = try given.nested(name)
                }
                if var username = profileFields["username"], !username.value.isEmpty {
                    username.value = try ChangeUsername.Request.checked(username.value, field: "fields.username.value")
                    profileFields["username"] = username
                }
            }

            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = [:]
                out.set("display_name", displayName.map(JSONValue.string))
                if !profileFields.isEmpty { out["fields"] = .object(profileFields.mapValues(\.json)) }
                return out
            }
            public static let fieldNames = ["display_name?", "fields?"]
        }
        public typealias Response = NoFields
    }

    /// A client-encrypted picture the server cannot read.
    public struct Avatar: WireBody {
        /// Avatars are at most this long.
        public static let maximumBytes = 256 * 1024
        public var avatar: [UInt8]
        public var updatedAt: Int64
        public init(avatar: [UInt8], updatedAt: Int64) {
            self.avatar = avatar
            self.updatedAt = updatedAt
        }
        public init(from fields: WireFields) throws(WireError) {
            avatar = try fields.bytes("avatar", maxBytes: Self.maximumBytes)
            updatedAt = try fields.integer("updated_at")
        }
        public var fields: [String: JSONValue] { ["avatar": .base64(avatar), "updated_at": .int(updatedAt)] }
        public static let fieldNames = ["avatar", "updated_at"]
    }

    /// Replaces the caller's avatar (`update_avatar`).
    public enum UpdateAvatar: APIMethod {
        public static let name = "update_avatar"
        public static let requiresLogin = true
        public struct Request: WireBody {
            public var avatar: [UInt8]
            public init(avatar: [UInt8]) { self.avatar = avatar }
            public init(from fields: WireFields) throws(WireError) { avatar = try fields.bytes("avatar", maxBytes: Avatar.maximumBytes) }
            public var fields: [String: JSONValue] { ["avatar": .base64(avatar)] }
            public static let fieldNames = ["avatar"]
        }
        public typealias Response = NoFields
    }

    /// A person's avatar, for the owner and their contacts (`get_avatar`).
    public enum GetAvatar: APIMethod {
        public static let name = "get_avatar"
        public static let requiresLogin = true
        public struct Request: WireBody {
            public var accountID: Int64
            public init(accountID: Int64) { self.accountID = accountID }
            public init(from fields: WireFields) throws(WireError) { accountID = try fields.integer("account_id") }
            public var fields: [String: JSONValue] { ["account_id": .int(accountID)] }
            public static let fieldNames = ["account_id"]
        }
        public typealias Response = Avatar
    }

    /// Replaces a group's avatar, for its members (`update_group_avatar`).
    public enum UpdateGroupAvatar: APIMethod {
        public static let name = "update_group_avatar"
        public static let requiresLogin = true
        public struct Request: WireBody {
            public var conversationID: Int64
            public var avatar: [UInt8]
            public init(conversationID: Int64, avatar: [UInt8]) {
                self.conversationID = conversationID
                self.avatar = avatar
            }
            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.integer("conversation_id")
                avatar = try fields.bytes("avatar", maxBytes: Avatar.maximumBytes)
            }
            public var fields: [String: JSONValue] { ["conversation_id": .int(conversationID), "avatar": .base64(avatar)] }
            public static let fieldNames = ["conversation_id", "avatar"]
        }
        public typealias Response = NoFields
    }

    /// A group's avatar, for its members (`get_group_avatar`).
    public enum GetGroupAvatar: APIMethod {
        public static let name = "get_group_avatar"
        public static let requiresLogin = true
        public typealias Request = ConversationRef
        public typealias Response = Avatar
    }
}
