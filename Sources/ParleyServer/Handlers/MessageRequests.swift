import Foundation
import ParleyWire

/// Message requests and the block list (docs/API.md §5.1).
///
/// A direct conversation started by someone who is not yet a contact is a request: its messages reach the
/// other person, but until they accept (or write back) the starter sees none of their contacts-only profile
/// fields, no avatar, no presence and no read marks. Declining hides it and withholds whatever the starter
/// sends next; blocking also declines, withholds the blocked person's messages everywhere and ends presence
/// both ways. The starter is never told: their messages simply stay undelivered.
enum MessageRequests {
    static func register(in router: inout RequestRouter) {
        router.add(API.ListRequests.self) { _, environment, context throws(WireError) in
            // As long as strangers make it (each may have 100 waiting, to anyone): paid for like a list.
            let accountID = environment.account.accountID
            return try await context.listingAllowance.listing(accountID: accountID, clock: context.clock) { () async throws(WireError) in
                let requests = try await StoreCall.call(context) { try await context.store.requests(accountID: accountID) }
                return (API.ListRequests.Response(requests: requests.map(messageRequest)), requests.count)
            }
        }
        router.add(API.AcceptRequest.self) { request, environment, context throws(WireError) in
            guard try await acceptIfOwed(request.conversationID, environment.account, context) else {
                throw WireError(.notFound, "no message request in this conversation")
            }
            return NoFields()
        }
        router.add(API.DeclineRequest.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let conversationID = request.conversationID
            let owed = try await StoreCall.call(context) { try await context.store.requestState(conversationID: conversationID, accountID: caller.accountID) }
            guard owed == .pending else { throw WireError(.notFound, "no message request in this conversation") }
            try await StoreCall.call(context) {
                try await context.store.setRequestState(conversationID: conversationID, accountID: caller.accountID, .declined)
            }
            return NoFields()
        }
        router.add(API.BlockAccount.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let limit = API.BlockAccount.maximumBlocked
            // The same answer whether or not the account exists: a block list is no way to probe for accounts.
            guard let blocked = try await named(request, caller, context) else { return NoFields() }
            let added = try await StoreCall.call(context) {
                try await context.store.block(blocked, by: caller.accountID, limit: limit, now: context.clock.now())
            }
            guard added else {
                throw WireError(.quotaExceeded, "your block list is full (\(limit) people); unblock someone first")
            }
            // Presence ends both ways, now rather than at the next connect.
            context.notifications.notify(accountID: caller.accountID, .userOffline(.init(accountID: blocked)))
            context.notifications.notify(accountID: blocked, .userOffline(.init(accountID: caller.accountID)))
            return NoFields()
        }
        router.add(API.UnblockAccount.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            guard let blocked = try await named(request, caller, context) else { return NoFields() }
            try await StoreCall.call(context) { try await context.store.unblock(blocked, by: caller.accountID) }
            return NoFields()
        }
        router.add(API.ListBlocked.self) { _, environment, context throws(WireError) in
            let entries = try await StoreCall.call(context) { try await context.store.blockedAccounts(by: environment.account.accountID) }
            return API.ListBlocked.Response(blocked: entries.map { API.BlockedAccount(accountID: $0.accountID, displayName: $0.displayName) })
        }
    }

    /// What the other person of a new direct conversation owes its starter: nothing when they are contacts
    /// already, a declined request when the starter is on their block list, else a pending one.
    static func answerOwed(by recipient: Int64, to starter: Int64, _ context: ServerContext) async throws(WireError) -> RequestState? {
        if try await StoreCall.call(context, { try await context.store.hasBlocked(recipient, starter) }) { return .declined }
        // From the starter's conversations, not every member of the recipient's (which may be many large groups).
        return try await StoreCall.call(context, { try await context.store.areContacts(starter, recipient) }) ? nil : .pending
    }

    /// Refuses a new message request to `other` while `API.CreateConversation.maximumUnansweredRequests` of the
    /// caller's wait for an answer; opening a direct conversation that exists already is not a new request. Asked
    /// whether the answer owed is pending or (blocked) declined, so the refusal says nothing about blocks.
    static func refuseIfTooManyUnanswered(with other: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) {
        let limit = API.CreateConversation.maximumUnansweredRequests
        let (existing, unanswered) = try await StoreCall.call(context) { () async throws -> (ConversationRecord?, Int) in
            (try await context.store.directConversation(between: caller.accountID, and: other),
             try await context.store.unansweredRequests(startedBy: caller.accountID))
        }
        guard existing == nil, unanswered >= limit else { return }
        throw WireError(.quotaExceeded, "\(limit) people have not answered your message requests yet; you can ask someone new once one of them accepts or declines (or you delete one of those conversations)")
    }

    /// How long after a request was deleted (by either person) a new one between the same two arrives without a
    /// notification: otherwise deleting and starting again would let a stranger buzz someone at the request rate.
    static let quietAfterDeletion: Int64 = 86_400_000

    /// Whether a new request from the caller to `other` should arrive quietly (listed, not announced).
    static func arrivesQuietly(to other: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Bool {
        let since = context.clock.now() - quietAfterDeletion
        return try await StoreCall.call(context) { try await context.store.requestDeleted(from: caller.accountID, to: other, since: since) }
    }

    /// Accepts the caller's pending or declined request in the conversation, if there is one: the starter
    /// hears `request_accepted`, and each hears whether the other is online. False when nothing was owed.
    @discardableResult
    static func acceptIfOwed(_ conversationID: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Bool {
        let owed = try await StoreCall.call(context) { try await context.store.requestState(conversationID: conversationID, accountID: caller.accountID) }
        guard owed != nil else { return false }
        try await StoreCall.call(context) { try await context.store.setRequestState(conversationID: conversationID, accountID: caller.accountID, nil) }
        let others = try await StoreCall.call(context) { try await context.store.activeMemberIDs(conversationID: conversationID) }
            .filter { $0 != caller.accountID }
        let online = await context.presence.online(others + [caller.accountID])
        for other in others {
            context.notifications.notify(accountID: other, .requestAccepted(.init(conversationID: conversationID, accountID: caller.accountID)))
            if online.contains(other) {
                context.notifications.notify(accountID: caller.accountID, .userOnline(.init(accountID: other)))
            }
            if online.contains(caller.accountID) {
                context.notifications.notify(accountID: other, .userOnline(.init(accountID: caller.accountID)))
            }
        }
        return true
    }

    /// The account a block request names by `account_id` or `email`; nil when there is none (or it is not active).
    static func named(_ person: API.AccountChoice, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64? {
        let account: AccountRecord?
        switch person {
        case .email(let given):
            let email = try IdentityText.email(given)
            account = try await StoreCall.call(context) { try await context.store.account(email: email) }
        case .accountID(let id):
            account = try await StoreCall.call(context) { try await context.store.account(id: id) }
        }
        guard let account, account.isActive else { return nil }
        guard account.id != caller.accountID else { throw WireError(.invalidField, "you cannot block yourself") }
        return account.id
    }

    static func messageRequest(_ request: RequestRecord) -> API.MessageRequest {
        API.MessageRequest(
            conversationID: request.conversation.id, accountID: request.requesterID, email: request.requesterEmail,
            displayName: request.requesterName, createdAt: request.conversation.createdAt, lastMessageAt: request.lastMessageAt)
    }
}
