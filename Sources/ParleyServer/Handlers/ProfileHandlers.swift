import Foundation
import ParleyWire

/// Profiles with per-field visibility the server enforces, and client-encrypted avatars.
///
/// The display name is visible to every logged-in user (people must recognise whom they add);
/// `username`, `email`, `phone` and `location` are shown per their visibility. Avatars are
/// ciphertext the server cannot read; a person's is served to contacts and the owner, a group's to
/// its members.
enum ProfileHandlers {

    static func register(in router: inout RequestRouter) {
        router.add(API.GetProfile.self) { request, environment, context throws(WireError) in
            try await profile(request, environment.account, context)
        }
        router.add(API.UpdateProfile.self) { request, environment, context throws(WireError) in
            try await update(request, environment.account, context)
            return NoFields()
        }
        router.add(API.UpdateAvatar.self) { request, environment, context throws(WireError) in
            try await StoreCall.call(context) { try await context.store.setAvatar(.account(environment.account.accountID), blob: request.avatar, now: context.clock.now()) }
            return NoFields()
        }
        router.add(API.GetAvatar.self) { request, environment, context throws(WireError) in
            guard try await relation(of: environment.account.accountID, to: request.accountID, context) != .stranger else {
                throw WireError(.notFound, "no avatar")
            }
            return try await avatar(.account(request.accountID), context)
        }
        router.add(API.UpdateGroupAvatar.self) { request, environment, context throws(WireError) in
            let group = try await GroupHandlers.activeGroup(request.conversationID, environment.account, context)
            try await StoreCall.call(context) { try await context.store.setAvatar(.group(group.id), blob: request.avatar, now: context.clock.now()) }
            return NoFields()
        }
        router.add(API.GetGroupAvatar.self) { request, environment, context throws(WireError) in
            let group = try await GroupHandlers.activeGroup(request.conversationID, environment.account, context)
            return try await avatar(.group(group.id), context)
        }
    }

    enum Relation { case owner, contact, stranger }

    /// A contact shares an accepted conversation with the owner. Whoever the owner sent a message request to
    /// sees them as a contact too (starting a conversation shows who you are); the owner does not see them so
    /// until they accept (docs/API.md §5.1).
    static func relation(of viewer: Int64, to owner: Int64, _ context: ServerContext) async throws(WireError) -> Relation {
        if viewer == owner { return .owner }
        // From the viewer's conversations: a stranger asking about an account in many large groups must not make the
        // server read every member of them.
        if try await StoreCall.call(context, { try await context.store.areContacts(viewer, owner) }) { return .contact }
        let askedByOwner = try await StoreCall.call(context) { () async throws -> Bool in
            guard let direct = try await context.store.directConversation(between: viewer, and: owner) else { return false }
            let viewerOwes = try await context.store.requestState(conversationID: direct.id, accountID: viewer)
            let ownerOwes = try await context.store.requestState(conversationID: direct.id, accountID: owner)
            return viewerOwes == .pending && ownerOwes == nil
        }
        return askedByOwner ? .contact : .stranger
    }

    static func profile(_ request: API.GetProfile.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.GetProfile.Response {
        let accountID = request.accountID ?? caller.accountID
        let account = try await StoreCall.call(context) { try await context.store.account(id: accountID) }
        guard let account, account.isActive else { throw WireError(.notFound, "no such account") }
        let relation = try await relation(of: caller.accountID, to: accountID, context)
        let stored = try await StoreCall.call(context) { try await context.store.profileFields(accountID: accountID) }
        var profile = API.GetProfile.Response(accountID: accountID, displayName: account.displayName)
        for field in stored {
            let allowed = switch field.visibility {
            case .everyone: true
            case .contacts: relation != .stranger
            case .nobody: relation == .owner
            }
            guard allowed else { continue }
            // The address is the account's own, whatever an older server stored: the field only says who sees it.
            let value = field.name == "email" ? account.email : field.value
            if relation == .owner {
                profile.own[field.name] = API.OwnField(value: value, visibility: field.visibility)
            } else {
                profile.shown[field.name] = value
            }
        }
        return profile
    }

    static func update(_ request: API.UpdateProfile.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) {
        // Everything is validated before anything is written: a refused request changes nothing.
        let displayName = try request.displayName.map { name throws(WireError) in
            try IdentityText.name(name, field: "display_name")
        }
        if let displayName, displayName.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalid("display_name", "must not be empty")
        }
        let updates = request.profileFields.sorted { $0.key < $1.key }.map { name, field in
            ProfileField(name: name, value: field.value, visibility: field.visibility)
        }
        if let email = request.profileFields["email"]?.value, !email.isEmpty {
            try await checkOwnAddress(email, caller, context)
        }
        if let username = request.profileFields["username"]?.value, !username.isEmpty {
            // As `change_username` checks: a username names one account.
            let holder = try await StoreCall.call(context) { try await context.store.accountID(username: username) }
            guard holder == nil || holder == caller.accountID else { throw WireError(.conflict, "this username is taken") }
        }
        if let displayName {
            try await StoreCall.call(context) { try await context.store.setDisplayName(accountID: caller.accountID, displayName) }
        }
        try await StoreCall.call(context) { try await context.store.setProfileFields(accountID: caller.accountID, updates) }
        // Contacts hear it, so a name shown beside their messages is not the old one (a hint; losing it only
        // leaves the old name until the next read of the profile).
        guard let contacts = try? await context.store.contactIDs(accountID: caller.accountID) else { return }
        for contact in contacts {
            context.notifications.notify(accountID: contact, .profileUpdated(.init(accountID: caller.accountID)))
        }
    }

    /// The `email` field shows the address the account registered with, never another: others' devices take it as
    /// the account's address (a contact's name, a member list, a key-change warning), as `find_account` would say.
    static func checkOwnAddress(_ given: String, _ caller: Caller, _ context: ServerContext) async throws(WireError) {
        let account = try await StoreCall.call(context) { try await context.store.account(id: caller.accountID) }
        guard let account else { throw WireError(.notFound, "no such account") }
        let normalized = (try? IdentityText.email(given, field: "fields.email")) ?? given
        guard normalized == account.email else {
            throw .invalid("fields.email", "must be the address this account registered with, \(account.email); the field shows it to others and cannot name another")
        }
    }

    static func avatar(_ owner: AvatarOwner, _ context: ServerContext) async throws(WireError) -> API.Avatar {
        let avatar = try await StoreCall.call(context) { try await context.store.avatar(owner) }
        guard let avatar else { throw WireError(.notFound, "no avatar") }
        return API.Avatar(avatar: avatar.blob, updatedAt: avatar.updatedAt)
    }
}
