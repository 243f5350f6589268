import Foundation
import ParleyWire

/// Profiles with per-field visibility the server enforces, and client-encrypted avatars.
///
/// The display name is visible to every logged-in user (people must recognise whom they add);
/// `username`, `email`, `phone` and `location` are shown per their visibility. Avatars are
/// ciphertext the server cannot read; a person's is served to contacts and the owner, a group's to
/// its members.
enum ProfileHandlers {
    static let fields: Set<String> = ["username", "email", "phone", "location"]
    static let maximumAvatar = 256 * 1024

    static func register(in router: inout RequestRouter) {
        router.add("get_profile", requiresLogin: true) { request, environment, context throws(WireError) in
            try await profile(request, environment.caller!, context)
        }
        router.add("update_profile", requiresLogin: true) { request, environment, context throws(WireError) in
            try await update(request, environment.caller!, context)
        }
        router.add("update_avatar", requiresLogin: true) { request, environment, context throws(WireError) in
            let blob = try request.bytes("avatar", maxBytes: maximumAvatar)
            try await StoreCall.call(context) { try await context.store.setAvatar(.account(environment.caller!.accountID), blob: blob, now: context.clock.now()) }
            return HandlerResult()
        }
        router.add("get_avatar", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let accountID = try request.integer("account_id")
            guard try await relation(of: caller.accountID, to: accountID, context) != .stranger else {
                throw WireError(.notFound, "no avatar")
            }
            return try await avatarResult(.account(accountID), context)
        }
        router.add("update_group_avatar", requiresLogin: true) { request, environment, context throws(WireError) in
            let group = try await GroupHandlers.activeGroup(request, environment.caller!, context)
            let blob = try request.bytes("avatar", maxBytes: maximumAvatar)
            try await StoreCall.call(context) { try await context.store.setAvatar(.group(group.id), blob: blob, now: context.clock.now()) }
            return HandlerResult()
        }
        router.add("get_group_avatar", requiresLogin: true) { request, environment, context throws(WireError) in
            let group = try await GroupHandlers.activeGroup(request, environment.caller!, context)
            return try await avatarResult(.group(group.id), context)
        }
    }

    enum Relation { case owner, contact, stranger }

    /// A contact shares an accepted conversation with the owner. Whoever the owner sent a message request to
    /// sees them as a contact too (starting a conversation shows who you are); the owner does not see them so
    /// until they accept (docs/API.md §5.1).
    static func relation(of viewer: Int64, to owner: Int64, _ context: ServerContext) async throws(WireError) -> Relation {
        if viewer == owner { return .owner }
        let contacts = try await StoreCall.call(context) { try await context.store.contactIDs(accountID: owner) }
        if contacts.contains(viewer) { return .contact }
        let askedByOwner = try await StoreCall.call(context) { () async throws -> Bool in
            guard let direct = try await context.store.directConversation(between: viewer, and: owner) else { return false }
            let viewerOwes = try await context.store.requestState(conversationID: direct.id, accountID: viewer)
            let ownerOwes = try await context.store.requestState(conversationID: direct.id, accountID: owner)
            return viewerOwes == .pending && ownerOwes == nil
        }
        return askedByOwner ? .contact : .stranger
    }

    static func profile(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let accountID = try request.optionalInteger("account_id") ?? caller.accountID
        let account = try await StoreCall.call(context) { try await context.store.account(id: accountID) }
        guard let account, account.isActive else { throw WireError(.notFound, "no such account") }
        let relation = try await relation(of: caller.accountID, to: accountID, context)
        let stored = try await StoreCall.call(context) { try await context.store.profileFields(accountID: accountID) }
        var visible: [String: JSONValue] = [:]
        for field in stored {
            let allowed = switch field.visibility {
            case .everyone: true
            case .contacts: relation != .stranger
            case .nobody: relation == .owner
            }
            guard allowed else { continue }
            visible[field.name] = relation == .owner
                ? ["value": .string(field.value), "visibility": .string(field.visibility.rawValue)]
                : .string(field.value)
        }
        return HandlerResult([
            "account_id": .number(Double(accountID)), "display_name": .string(account.displayName), "fields": .object(visible),
        ])
    }

    static func update(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        // Everything is validated before anything is written: a refused request changes nothing.
        let displayName = try request.optionalString("display_name", maxBytes: 128).map { name throws(WireError) in
            try IdentityText.name(name, field: "display_name")
        }
        if let displayName, displayName.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalid("display_name", "must not be empty")
        }
        var updates: [ProfileField] = []
        if case .object(let object)? = request.fields["fields"] {
            for (name, value) in object.sorted(by: { $0.key < $1.key }) {
                guard fields.contains(name) else { throw .invalid("fields.\(name)", "is not a profile field (\(fields.sorted().joined(separator: ", ")))") }
                guard case .object(let entry) = value, case .string(let text)? = entry["value"], text.utf8.count <= 256,
                    case .string(let visibilityText)? = entry["visibility"], let visibility = Visibility(rawValue: visibilityText)
                else {
                    throw .invalid("fields.\(name)", "must be {\"value\": string ≤ 256 bytes, \"visibility\": \"everyone\"|\"contacts\"|\"nobody\"}")
                }
                updates.append(ProfileField(name: name, value: text, visibility: visibility))
            }
        } else if request.fields["fields"] != nil {
            throw .invalid("fields", "must be an object")
        }
        if let displayName {
            try await StoreCall.call(context) { try await context.store.setDisplayName(accountID: caller.accountID, displayName) }
        }
        try await StoreCall.call(context) { try await context.store.setProfileFields(accountID: caller.accountID, updates) }
        return HandlerResult()
    }

    static func avatarResult(_ owner: AvatarOwner, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let avatar = try await StoreCall.call(context) { try await context.store.avatar(owner) }
        guard let avatar else { throw WireError(.notFound, "no avatar") }
        return HandlerResult([
            "avatar": .string(Data(avatar.blob).base64EncodedString()), "updated_at": .number(Double(avatar.updatedAt)),
        ])
    }
}
