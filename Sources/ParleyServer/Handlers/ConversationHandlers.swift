import Foundation
import ParleyWire

/// `create_conversation`, `list_conversations`, `find_conversation`.
enum ConversationHandlers {
    static let maximumGroupSize = 256

    static func register(in router: inout RequestRouter) {
        router.add("create_conversation", requiresLogin: true) { request, environment, context throws(WireError) in
            try await create(request, environment.caller!, context)
        }
        router.add("list_conversations", requiresLogin: true) { _, environment, context throws(WireError) in
            let summaries = try await StoreCall.call(context) { try await context.store.conversations(accountID: environment.caller!.accountID) }
            return HandlerResult(["conversations": .array(summaries.map(json))])
        }
        router.add("find_conversation", requiresLogin: true) { request, environment, context throws(WireError) in
            let email = try AuthHandlers.email(request)
            let found = try await StoreCall.call(context) { () async throws -> ConversationRecord? in
                guard let other = try await context.store.account(email: email), other.isActive else { return nil }
                return try await context.store.directConversation(between: environment.caller!.accountID, and: other.id)
            }
            guard let found else { throw WireError(.notFound, "no conversation with this person yet (create_conversation)") }
            return HandlerResult(["conversation_id": .number(Double(found.id))])
        }
    }

    static func create(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let kindText = try request.string("kind", maxBytes: 16)
        guard let kind = ConversationRecord.Kind(rawValue: kindText) else { throw .invalid("kind", "must be \"direct\" or \"group\"") }
        let emails = try request.array("members", maxCount: maximumGroupSize)
        guard kind == .group || emails.count == 1 else { throw .invalid("members", "a direct conversation has exactly one other member") }
        var memberIDs: [Int64] = []
        for (index, value) in emails.enumerated() {
            guard case .string(let email) = value else { throw .invalid("members[\(index)]", "must be an e-mail address") }
            let address = try IdentityText.email(email, field: "members[\(index)]")
            let account = try await StoreCall.call(context) { try await context.store.account(email: address) }
            guard let account, account.isActive else {
                throw WireError(.notFound, "\(address) has no Parley account on this server (check the spelling, or invite them to join)")
            }
            guard account.id != caller.accountID else { throw .invalid("members[\(index)]", "is you; you are a member already") }
            if !memberIDs.contains(account.id) { memberIDs.append(account.id) }
        }
        if kind == .group {
            // Nobody is invited by someone they blocked; the creator is not told (docs/API.md §5.1).
            var invitable: [Int64] = []
            for member in memberIDs where !(try await StoreCall.call(context, { try await context.store.hasBlocked(member, caller.accountID) })) {
                invitable.append(member)
            }
            memberIDs = invitable
        }
        let now = context.clock.now()
        let request = kind == .direct ? try await MessageRequests.answerOwed(by: memberIDs[0], to: caller.accountID, context) : nil
        let (conversation, created) = try await StoreCall.call(context) {
            try await context.store.createConversation(kind: kind, creatorID: caller.accountID, memberIDs: memberIDs, request: request, now: now)
        }
        if created {
            let event = kind == .direct ? (request == nil ? "conversation_created" : "message_request") : "group_invitation"
            for member in memberIDs where request != .declined {
                context.notifications.notify(
                    accountID: member, event: event,
                    fields: ["conversation_id": .number(Double(conversation.id)), "creator_id": .number(Double(caller.accountID))])
            }
        } else if kind == .direct {
            // Opening a conversation someone else started with you answers their request: you chose to write.
            try await MessageRequests.acceptIfOwed(conversation.id, caller, context)
        }
        return HandlerResult(["conversation_id": .number(Double(conversation.id)), "created": .bool(created)])
    }

    static func json(_ summary: ConversationSummary) -> JSONValue {
        var object: [String: JSONValue] = [
            "conversation_id": .number(Double(summary.conversation.id)),
            "kind": .string(summary.conversation.kind.rawValue),
            "creator_id": .number(Double(summary.conversation.creatorID)),
            "members": .array(summary.memberIDs.map { .number(Double($0)) }),
            "unread": .number(Double(summary.unreadCount)),
            "created_at": .number(Double(summary.conversation.createdAt)),
        ]
        if let last = summary.lastMessageAt { object["last_message_at"] = .number(Double(last)) }
        if let request = summary.request { object["request"] = .string(request.rawValue) }
        return .object(object)
    }
}
