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
    /// How many accounts one block list holds.
    static let maximumBlocked = 10_000

    static func register(in router: inout RequestRouter) {
        router.add("list_requests", requiresLogin: true) { _, environment, context throws(WireError) in
            let requests = try await StoreCall.call(context) { try await context.store.requests(accountID: environment.caller!.accountID) }
            return HandlerResult(["requests": .array(requests.map(json))])
        }
        router.add("accept_request", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let conversationID = try request.integer("conversation_id")
            guard try await acceptIfOwed(conversationID, caller, context) else {
                throw WireError(.notFound, "no message request in this conversation")
            }
            return HandlerResult()
        }
        router.add("decline_request", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let conversationID = try request.integer("conversation_id")
            let owed = try await StoreCall.call(context) { try await context.store.requestState(conversationID: conversationID, accountID: caller.accountID) }
            guard owed == .pending else { throw WireError(.notFound, "no message request in this conversation") }
            try await StoreCall.call(context) {
                try await context.store.setRequestState(conversationID: conversationID, accountID: caller.accountID, .declined)
            }
            return HandlerResult()
        }
        router.add("block_account", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            // The same answer whether or not the account exists: a block list is no way to probe for accounts.
            guard let blocked = try await named(request, caller, context) else { return HandlerResult() }
            let added = try await StoreCall.call(context) {
                try await context.store.block(blocked, by: caller.accountID, limit: maximumBlocked, now: context.clock.now())
            }
            guard added else {
                throw WireError(.quotaExceeded, "your block list is full (\(maximumBlocked) people); unblock someone first")
            }
            // Presence ends both ways, now rather than at the next connect.
            context.notifications.notify(accountID: caller.accountID, event: "user_offline", fields: ["account_id": .number(Double(blocked))])
            context.notifications.notify(accountID: blocked, event: "user_offline", fields: ["account_id": .number(Double(caller.accountID))])
            return HandlerResult()
        }
        router.add("unblock_account", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            guard let blocked = try await named(request, caller, context) else { return HandlerResult() }
            try await StoreCall.call(context) { try await context.store.unblock(blocked, by: caller.accountID) }
            return HandlerResult()
        }
        router.add("list_blocked", requiresLogin: true) { _, environment, context throws(WireError) in
            let ids = try await StoreCall.call(context) { try await context.store.blockedIDs(by: environment.caller!.accountID) }
            var blocked: [JSONValue] = []
            for id in ids {
                guard let account = try await StoreCall.call(context, { try await context.store.account(id: id) }) else { continue }
                blocked.append(["account_id": .number(Double(id)), "display_name": .string(account.displayName)])
            }
            return HandlerResult(["blocked": .array(blocked)])
        }
    }

    /// What the other person of a new direct conversation owes its starter: nothing when they are contacts
    /// already, a declined request when the starter is on their block list, else a pending one.
    static func answerOwed(by recipient: Int64, to starter: Int64, _ context: ServerContext) async throws(WireError) -> RequestState? {
        if try await StoreCall.call(context, { try await context.store.hasBlocked(recipient, starter) }) { return .declined }
        let contacts = try await StoreCall.call(context) { try await context.store.contactIDs(accountID: recipient) }
        return contacts.contains(starter) ? nil : .pending
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
            context.notifications.notify(accountID: other, event: "request_accepted", fields: [
                "conversation_id": .number(Double(conversationID)), "account_id": .number(Double(caller.accountID)),
            ])
            if online.contains(other) {
                context.notifications.notify(accountID: caller.accountID, event: "user_online", fields: ["account_id": .number(Double(other))])
            }
            if online.contains(caller.accountID) {
                context.notifications.notify(accountID: other, event: "user_online", fields: ["account_id": .number(Double(caller.accountID))])
            }
        }
        return true
    }

    /// The account a block request names by `account_id` or `email`; nil when there is none (or it is not active).
    static func named(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> Int64? {
        let account: AccountRecord?
        if request.fields["email"] != nil {
            let email = try AuthHandlers.email(request)
            account = try await StoreCall.call(context) { try await context.store.account(email: email) }
        } else {
            let id = try request.integer("account_id")
            account = try await StoreCall.call(context) { try await context.store.account(id: id) }
        }
        guard let account, account.isActive else { return nil }
        guard account.id != caller.accountID else { throw WireError(.invalidField, "you cannot block yourself") }
        return account.id
    }

    static func json(_ request: RequestRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "conversation_id": .number(Double(request.conversation.id)),
            "account_id": .number(Double(request.requesterID)),
            "email": .string(request.requesterEmail),
            "display_name": .string(request.requesterName),
            "created_at": .number(Double(request.conversation.createdAt)),
        ]
        if let last = request.lastMessageAt { object["last_message_at"] = .number(Double(last)) }
        return .object(object)
    }
}
