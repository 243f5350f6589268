import Foundation
import ParleyWire

/// `create_conversation`, `list_conversations`, `get_conversation`, `find_conversation`.
enum ConversationHandlers {
    static func register(in router: inout RequestRouter) {
        router.add(API.CreateConversation.self) { request, environment, context throws(WireError) in
            try await create(request, environment.account, context)
        }
        router.add(API.ListConversations.self) { _, environment, context throws(WireError) in
            let accountID = environment.account.accountID
            return try await context.listingAllowance.listing(accountID: accountID, clock: context.clock) { () async throws(WireError) in
                let summaries = try await StoreCall.call(context) { try await context.store.conversations(accountID: accountID) }
                let items = summaries.reduce(summaries.count) { $0 + $1.memberIDs.count + $1.unreadCount }
                return (API.ListConversations.Response(conversations: summaries.map(summary)), items)
            }
        }
        router.add(API.GetConversation.self) { request, environment, context throws(WireError) in
            // Never waits for the allowance (a conversation holds at most 257 people, and a client needs the one that
            // changed), but is counted in it.
            let accountID = environment.account.accountID
            let found = try await StoreCall.call(context) { try await context.store.conversation(id: request.conversationID, accountID: accountID) }
            guard let found else { throw WireError(.notFound, "no such conversation, or you are not in it") }
            context.listingAllowance.spend(accountID: accountID, items: 1 + found.memberIDs.count + found.unreadCount, now: context.clock.now())
            return summary(found)
        }
        router.add(API.FindConversation.self) { request, environment, context throws(WireError) in
            let email = try IdentityText.email(request.email)
            let found = try await StoreCall.call(context) { () async throws -> ConversationRecord? in
                guard let other = try await context.store.account(email: email), other.isActive else { return nil }
                return try await context.store.directConversation(between: environment.account.accountID, and: other.id)
            }
            guard let found else { throw WireError(.notFound, "no conversation with this person yet (create_conversation)") }
            return API.ConversationRef(conversationID: found.id)
        }
    }

    static func create(_ request: API.CreateConversation.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.CreateConversation.Response {
        let kind: ConversationRecord.Kind = request.kind == .direct ? .direct : .group
        var memberIDs: [Int64] = []
        var named: [Int64] = []  // the account of each address asked for, in order (blocks are not told apart)
        var addresses: [Int64: String] = [:]
        for (index, email) in request.members.enumerated() {
            let address = try IdentityText.email(email, field: "members[\(index)]")
            let account = try await StoreCall.call(context) { try await context.store.account(email: address) }
            guard let account, account.isActive else {
                throw WireError(.notFound, "\(address) has no Parley account on this server (check the spelling, or invite them to join)")
            }
            guard account.id != caller.accountID else { throw .invalid("members[\(index)]", "is you; you are a member already") }
            if !memberIDs.contains(account.id) { memberIDs.append(account.id) }
            named.append(account.id)
            addresses[account.id] = address
        }
        if kind == .group {
            try await GroupHandlers.refuseIfInTooManyGroups(caller, context)
            // Nobody is invited by someone they blocked; the creator is not told (docs/API.md §5.1).
            var invitable: [Int64] = []
            for member in memberIDs where !(try await StoreCall.call(context, { try await context.store.hasBlocked(member, caller.accountID) })) {
                invitable.append(member)
            }
            memberIDs = invitable
            for member in memberIDs {
                try await GroupHandlers.refuseIfUnanswered(member, email: addresses[member] ?? "", creatorID: caller.accountID, by: caller, context)
            }
        }
        var quietMembers: Set<Int64> = []
        for member in memberIDs where kind == .group {
            if try await GroupHandlers.invitationArrivesQuietly(member, creatorID: caller.accountID, context) { quietMembers.insert(member) }
        }
        let now = context.clock.now()
        let owed = kind == .direct ? try await MessageRequests.answerOwed(by: memberIDs[0], to: caller.accountID, context) : nil
        if owed != nil { try await MessageRequests.refuseIfTooManyUnanswered(with: memberIDs[0], caller, context) }
        let quiet = owed == .pending ? try await MessageRequests.arrivesQuietly(to: memberIDs[0], caller, context) : false
        let (conversation, created) = try await StoreCall.call(context) {
            try await context.store.createConversation(kind: kind, creatorID: caller.accountID, memberIDs: memberIDs, request: owed, now: now)
        }
        if created {
            let started = ServerEvent.ConversationStarted(conversationID: conversation.id, creatorID: caller.accountID)
            let event: ServerEvent = switch kind {
            case .direct: owed == nil ? .conversationCreated(started) : .messageRequest(started)
            case .group: .groupInvitation(.init(conversationID: conversation.id, creatorID: caller.accountID))
            }
            for member in memberIDs where owed != .declined && !quiet && !quietMembers.contains(member) {
                context.notifications.notify(accountID: member, event)
            }
        } else if kind == .direct {
            // Opening a conversation someone else started with you answers their request: you chose to write.
            try await MessageRequests.acceptIfOwed(conversation.id, caller, context)
        }
        return API.CreateConversation.Response(conversationID: conversation.id, created: created, memberIDs: named)
    }

    static func summary(_ summary: ConversationSummary) -> API.ConversationSummary {
        API.ConversationSummary(
            conversationID: summary.conversation.id, kind: summary.conversation.kind == .direct ? .direct : .group,
            creatorID: summary.conversation.creatorID, members: summary.memberIDs, unread: summary.unreadCount,
            createdAt: summary.conversation.createdAt, lastMessageAt: summary.lastMessageAt,
            request: summary.request.map { $0 == .pending ? .pending : .declined })
    }
}
