import Foundation
import ParleyWire

/// Group management: invitations, membership, deletion. (Titles travel end to end: docs/CLIENT.md §8.)
///
/// Any active member may invite; only the creator renames, removes members or deletes a group. A creator who leaves
/// hands those rights on (`GroupDeparture`).
/// Either person may delete a direct conversation.
enum GroupHandlers {
    /// Refuses to invite `invitee` to another group `creatorID` made while they have
    /// `API.AddMember.maximumPendingPerCreator` such invitations unanswered. Said to the inviter, who can see
    /// those invitations in the groups' member lists anyway; someone who blocked the inviter is filtered before
    /// this, so the answer tells nothing about blocks.
    static func refuseIfUnanswered(
        _ invitee: Int64, email: String, creatorID: Int64, by caller: Caller, _ context: ServerContext
    ) async throws(WireError) {
        let limit = API.AddMember.maximumPendingPerCreator
        let pending = try await StoreCall.call(context) { try await context.store.pendingInvitations(accountID: invitee, creatorID: creatorID) }
        guard pending >= limit else { return }
        let whose = creatorID == caller.accountID ? "your groups" : "groups this group's creator made"
        throw WireError(.quotaExceeded, "\(email) has not answered \(limit) invitations to \(whose); they can be invited again once they accept or decline one")
    }

    /// Refuses to make the caller an active member of one more group (creating it, or accepting an invitation) when
    /// they are in `API.CreateConversation.maximumGroupsPerAccount` already. Checked before the change, so requests
    /// racing each other may pass it by as many as run at once (a few, at the per-account request rate).
    static func refuseIfInTooManyGroups(_ caller: Caller, _ context: ServerContext) async throws(WireError) {
        let limit = API.CreateConversation.maximumGroupsPerAccount
        let groups = try await StoreCall.call(context) { try await context.store.activeGroups(accountID: caller.accountID) }
        guard groups >= limit else { return }
        throw WireError(.quotaExceeded, "you are in \(limit) groups, the most one account may be in; leave one ('parley group leave ID') to create or join another")
    }

    /// How long after an invitation went away unanswered (its group deleted, or the invitee removed before answering)
    /// a new one to a group by the same creator arrives without a notification: otherwise inviting and deleting, or
    /// inviting and removing, would let anyone buzz someone at the request rate (docs/API.md §5).
    static let quietAfterWithdrawal: Int64 = 86_400_000

    /// Whether a new invitation of `invitee` to a group `creatorID` made should arrive quietly (listed, not announced).
    static func invitationArrivesQuietly(_ invitee: Int64, creatorID: Int64, _ context: ServerContext) async throws(WireError) -> Bool {
        let since = context.clock.now() - quietAfterWithdrawal
        return try await StoreCall.call(context) { try await context.store.invitationWithdrawn(invitee: invitee, creatorID: creatorID, since: since) }
    }

    static func register(in router: inout RequestRouter) {
        router.add(API.AddMember.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let group = try await activeGroup(request.conversationID, caller, context)
            let email = try IdentityText.email(request.email)
            let invitee = try await StoreCall.call(context) { try await context.store.account(email: email) }
            guard let invitee, invitee.isActive else { throw WireError(.notFound, "no account with this e-mail") }
            let status = try await StoreCall.call(context) { try await context.store.memberStatus(conversationID: group.id, accountID: invitee.id) }
            guard status != .active else { throw WireError(.conflict, "already a member") }
            let invited = API.AddMember.Response(accountID: invitee.id, status: "invited")
            // Inviting again answers as the first time; so does inviting someone who blocked you, which reaches
            // no one (docs/API.md §5.1): the two cannot be told apart.
            guard status != .invited else { return invited }
            if try await StoreCall.call(context, { try await context.store.hasBlocked(invitee.id, caller.accountID) }) { return invited }
            try await refuseIfUnanswered(invitee.id, email: email, creatorID: group.creatorID, by: caller, context)
            let quiet = try await invitationArrivesQuietly(invitee.id, creatorID: group.creatorID, context)
            let seats = API.CreateConversation.maximumMembers + 1
            let seated = try await StoreCall.call(context) {
                try await context.store.invite(conversationID: group.id, accountID: invitee.id, seats: seats, now: context.clock.now())
            }
            guard seated else {
                throw WireError(.quotaExceeded, "this group has \(seats) members and invitations already, the most a group may have")
            }
            if !quiet {
                context.notifications.notify(accountID: invitee.id, .groupInvitation(.init(conversationID: group.id, invitedBy: caller.accountID)))
            }
            return invited
        }
        router.add(API.ListInvitations.self) { _, environment, context throws(WireError) in
            let invitations = try await StoreCall.call(context) { try await context.store.invitations(accountID: environment.account.accountID) }
            return API.ListInvitations.Response(invitations: invitations.map { conversation in
                API.ConversationStart(conversationID: conversation.id, creatorID: conversation.creatorID)
            })
        }
        router.add(API.AcceptInvitation.self) { request, environment, context throws(WireError) in
            try await answerInvitation(request.conversationID, environment.account, context, accept: true)
            return NoFields()
        }
        router.add(API.DeclineInvitation.self) { request, environment, context throws(WireError) in
            try await answerInvitation(request.conversationID, environment.account, context, accept: false)
            return NoFields()
        }
        router.add(API.RemoveMember.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let group = try await activeGroup(request.conversationID, caller, context)
            guard group.creatorID == caller.accountID else { throw WireError(.forbidden, "only the group's creator removes members") }
            let accountID = request.accountID
            guard accountID != caller.accountID else { throw .invalid("account_id", "is you; leave the group instead") }
            let status = try await StoreCall.call(context) { try await context.store.memberStatus(conversationID: group.id, accountID: accountID) }
            switch status {
            case .active: try await changeMembership(group.id, accountID, to: .removed, context)
            case .invited: try await withdrawInvitation(group.id, accountID, context)
            default: throw WireError(.notFound, "not a member of this group")
            }
            return NoFields()
        }
        router.add(API.LeaveGroup.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let group = try await activeGroup(request.conversationID, caller, context)
            let before = try await StoreCall.call(context) { try await context.store.activeMemberIDs(conversationID: group.id) }
            // A creator's rights pass to the heir before anyone hears of it: each member reads the group again on
            // `member_removed` and finds the new creator there.
            _ = try await StoreCall.call(context) {
                try await context.store.leaveGroup(conversationID: group.id, accountID: caller.accountID, now: context.clock.now())
            }
            tellMembershipChanged(group.id, caller.accountID, .left, to: Set(before + [caller.accountID]), context)
            return NoFields()
        }
        router.add(API.DeleteConversation.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let conversation = try await ConversationAccess.activeConversation(id: request.conversationID, caller, context)
            guard conversation.kind == .direct || conversation.creatorID == caller.accountID else {
                throw WireError(.forbidden, "only the group's creator deletes it; its members leave it instead")
            }
            let members = try await StoreCall.call(context) { try await context.store.activeMemberIDs(conversationID: conversation.id) }
            try await StoreCall.call(context) { try await context.store.deleteConversation(conversationID: conversation.id, now: context.clock.now()) }
            for member in members {
                context.notifications.notify(accountID: member, .conversationDeleted(.init(conversationID: conversation.id)))
            }
            return NoFields()
        }
    }

    static func answerInvitation(_ conversationID: Int64, _ caller: Caller, _ context: ServerContext, accept: Bool) async throws(WireError) {
        let status = try await StoreCall.call(context) { try await context.store.memberStatus(conversationID: conversationID, accountID: caller.accountID) }
        guard status == .invited else { throw WireError(.notFound, "no invitation to this conversation") }
        if accept {
            try await refuseIfInTooManyGroups(caller, context)
            try await StoreCall.call(context) {
                try await context.store.setMemberStatus(conversationID: conversationID, accountID: caller.accountID, status: .active, now: context.clock.now())
            }
            try await notifyMembers(conversationID, context, .memberAdded(.init(conversationID: conversationID, accountID: caller.accountID)))
        } else {
            try await StoreCall.call(context) { try await context.store.deleteMember(conversationID: conversationID, accountID: caller.accountID) }
        }
    }

    /// Changes a member's status and tells everyone who was in the group, the member included.
    static func changeMembership(_ conversationID: Int64, _ accountID: Int64, to status: MemberStatus, _ context: ServerContext) async throws(WireError) {
        let before = try await StoreCall.call(context) { try await context.store.activeMemberIDs(conversationID: conversationID) }
        try await StoreCall.call(context) {
            try await context.store.setMemberStatus(conversationID: conversationID, accountID: accountID, status: status, now: context.clock.now())
        }
        tellMembershipChanged(conversationID, accountID, status, to: Set(before + [accountID]), context)
    }

    /// `member_removed` for `accountID` (who left, was removed) to each of `members`.
    static func tellMembershipChanged(
        _ conversationID: Int64, _ accountID: Int64, _ status: MemberStatus, to members: Set<Int64>, _ context: ServerContext
    ) {
        for member in members {
            context.notifications.notify(accountID: member, .memberRemoved(.init(conversationID: conversationID, accountID: accountID, reason: status.rawValue)))
        }
    }

    /// Takes back an unanswered invitation. The members hear `member_removed` as for a member; the invitee, like an
    /// invitee of a deleted group, hears nothing (the invitation leaves `list_invitations`), so inviting and removing
    /// again and again cannot buzz them either.
    static func withdrawInvitation(_ conversationID: Int64, _ accountID: Int64, _ context: ServerContext) async throws(WireError) {
        try await StoreCall.call(context) {
            try await context.store.setMemberStatus(conversationID: conversationID, accountID: accountID, status: .withdrawn, now: context.clock.now())
        }
        try await notifyMembers(conversationID, context, .memberRemoved(.init(conversationID: conversationID, accountID: accountID, reason: MemberStatus.removed.rawValue)))
    }

    /// Tells every active member of the conversation but `excluded`.
    static func notifyMembers(
        _ conversationID: Int64, _ context: ServerContext, _ event: ServerEvent, except excluded: Set<Int64> = []
    ) async throws(WireError) {
        for member in try await StoreCall.call(context, { try await context.store.activeMemberIDs(conversationID: conversationID) })
        where !excluded.contains(member) {
            context.notifications.notify(accountID: member, event)
        }
    }

    /// The group `id`, when the caller is an active member of it.
    static func activeGroup(_ id: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> ConversationRecord {
        let conversation = try await ConversationAccess.activeConversation(id: id, caller, context)
        guard conversation.kind == .group else { throw WireError(.forbidden, "this works on groups only") }
        return conversation
    }
}

/// The one membership check: a conversation the caller is not an active member of does not exist for them.
enum ConversationAccess {
    static func activeConversation(id: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> ConversationRecord {
        let (conversation, status) = try await StoreCall.call(context) { () async throws -> (ConversationRecord?, MemberStatus?) in
            (try await context.store.conversation(id: id), try await context.store.memberStatus(conversationID: id, accountID: caller.accountID))
        }
        guard let conversation, status == .active else { throw WireError(.notFound, "no such conversation") }
        return conversation
    }
}
