import Foundation
import ParleyWire

/// Read marks, reactions, pins, soft delete, deleted-since and forwarding.
enum MessageActionHandlers {
    /// The reactions a client may set (toggle).
    static let reactions: Set<String> = ["👍", "❤️", "😂", "😮", "😢", "👎"]

    static func register(in router: inout RequestRouter) {
        router.add("mark_read", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let message = try await accessibleMessage(request, caller, context)
            return try await markRead(message.conversationID, upTo: message.timestamp, caller, context)
        }
        router.add("mark_conversation_read", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let conversation = try await ConversationAccess.activeConversation(request, caller, context)
            let latest = try await StoreCall.call(context) { try await context.store.latestTimestamp(conversationID: conversation.id) }
            return try await markRead(conversation.id, upTo: latest, caller, context)
        }
        router.add("react_message", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let message = try await accessibleMessage(request, caller, context)
            let emoji = try request.string("emoji", maxBytes: 16)
            guard reactions.contains(emoji) else { throw .invalid("emoji", "must be one of \(reactions.sorted().joined(separator: " "))") }
            let present = try await StoreCall.call(context) {
                try await context.store.toggleReaction(messageID: message.id, accountID: caller.accountID, emoji: emoji, now: context.clock.now())
            }
            try await GroupHandlers.notifyMembers(message.conversationID, context, event: "message_reacted", fields: [
                "message_id": .number(Double(message.id)), "conversation_id": .number(Double(message.conversationID)),
                "account_id": .number(Double(caller.accountID)), "emoji": .string(emoji), "present": .bool(present),
            ])
            return HandlerResult(["present": .bool(present)])
        }
        router.add("pin_message", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let message = try await accessibleMessage(request, caller, context)
            let pinned = try request.bool("pinned")
            try await StoreCall.call(context) {
                try await context.store.setPinned(messageID: message.id, by: pinned ? caller.accountID : nil, now: context.clock.now())
            }
            try await GroupHandlers.notifyMembers(message.conversationID, context, event: pinned ? "message_pinned" : "message_unpinned", fields: [
                "message_id": .number(Double(message.id)), "conversation_id": .number(Double(message.conversationID)),
                "account_id": .number(Double(caller.accountID)),
            ])
            return HandlerResult()
        }
        router.add("get_pinned_messages", requiresLogin: true) { request, environment, context throws(WireError) in
            let conversation = try await ConversationAccess.activeConversation(request, environment.caller!, context)
            let pinned = try await StoreCall.call(context) { try await context.store.pinnedMessages(conversationID: conversation.id) }
            return HandlerResult(["messages": .array(pinned.map(json))])
        }
        router.add("delete_message", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let message = try await accessibleMessage(request, caller, context)
            guard message.senderID == caller.accountID else { throw WireError(.forbidden, "only the sender deletes a message") }
            try await StoreCall.call(context) { try await context.store.softDelete(messageID: message.id, now: context.clock.now()) }
            try await GroupHandlers.notifyMembers(message.conversationID, context, event: "message_deleted", fields: [
                "message_id": .number(Double(message.id)), "conversation_id": .number(Double(message.conversationID)),
            ])
            return HandlerResult()
        }
        router.add("get_message_state", requiresLogin: true) { request, environment, context throws(WireError) in
            try await messageStates(request, environment.caller!, context)
        }
        router.add("get_deleted_since", requiresLogin: true) { request, environment, context throws(WireError) in
            let since = try request.optionalInteger("since") ?? 0
            let deleted = try await StoreCall.call(context) { try await context.store.deletedMessages(accountID: environment.caller!.accountID, since: since) }
            return HandlerResult(["messages": .array(deleted.map(json))])
        }
        router.add("search_messages", requiresLogin: true) { request, environment, context throws(WireError) in
            let query = MessageQuery(
                conversationID: try request.optionalInteger("conversation_id"),
                senderID: try request.optionalInteger("sender_id"),
                kind: try request.optionalString("kind", maxBytes: 16),
                from: try request.optionalInteger("from_ts"),
                to: try request.optionalInteger("to_ts"),
                limit: Int(try request.optionalInteger("limit", in: 1...500) ?? 100))
            let found = try await StoreCall.call(context) { try await context.store.searchMessages(accountID: environment.caller!.accountID, query: query) }
            return HandlerResult(["messages": .array(found.map(json))])
        }
        router.add("forward_message", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let source = try await accessibleMessage(request, caller, context)
            let forwarded = try await MessageHandlers.send(request, caller, context)
            guard case .number(let id)? = forwarded.fields["message_id"] else { return forwarded }
            try await StoreCall.call(context) { try await context.store.setForwardedFrom(messageID: Int64(id), source: source.id) }
            return forwarded
        }
    }

    static func markRead(_ conversationID: Int64, upTo timestamp: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let mark = try await StoreCall.call(context) {
            try await context.store.markRead(conversationID: conversationID, accountID: caller.accountID, upTo: timestamp)
        }
        // Someone who has not accepted a request reads without read marks reaching the sender.
        let owed = try await StoreCall.call(context) { try await context.store.requestState(conversationID: conversationID, accountID: caller.accountID) }
        guard owed == nil else { return HandlerResult(["up_to": .number(Double(mark))]) }
        try await GroupHandlers.notifyMembers(conversationID, context, event: "messages_read", fields: [
            "conversation_id": .number(Double(conversationID)), "account_id": .number(Double(caller.accountID)),
            "up_to": .number(Double(mark)),
        ])
        return HandlerResult(["up_to": .number(Double(mark))])
    }

    /// Reactions, pin and deletion of up to 100 messages, so a device that was away catches up on what
    /// it missed as notifications. Ids the caller may not see are left out, as if they did not exist.
    static func messageStates(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        var ids: [Int64] = []
        for (index, value) in try request.array("message_ids", maxCount: 100).enumerated() {
            guard case .number(let number) = value, let id = Int64(exactly: number), id > 0 else {
                throw .invalid("message_ids[\(index)]", "must be a message id")
            }
            ids.append(id)
        }
        var states: [JSONValue] = []
        for id in Set(ids).sorted() {
            guard let message = try await StoreCall.call(context, { try await context.store.messageMetadata(id: id) }),
                  (try? await ConversationAccess.activeConversation(id: message.conversationID, caller, context)) != nil
            else { continue }
            let reactions = try await StoreCall.call(context) { try await context.store.reactions(messageID: id) }
            states.append([
                "message_id": .number(Double(id)), "pinned": .bool(message.pinnedAt != nil), "deleted": .bool(message.deletedAt != nil),
                "reactions": .array(reactions.map { ["account_id": .number(Double($0.0)), "emoji": .string($0.1)] }),
            ])
        }
        return HandlerResult(["messages": .array(states)])
    }

    /// A message in a conversation the caller is an active member of, not deleted.
    static func accessibleMessage(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> MessageMetadata {
        let id = try request.integer("message_id")
        let message = try await StoreCall.call(context) { try await context.store.messageMetadata(id: id) }
        guard let message, message.deletedAt == nil else { throw WireError(.notFound, "no such message") }
        do {
            _ = try await ConversationAccess.activeConversation(id: message.conversationID, caller, context)
        } catch {
            throw WireError(.notFound, "no such message")
        }
        return message
    }

    static func json(_ message: MessageMetadata) -> JSONValue {
        var object: [String: JSONValue] = [:]
        object["message_id"] = .number(Double(message.id))
        object["conversation_id"] = .number(Double(message.conversationID))
        object["sender_id"] = .number(Double(message.senderID))
        object["timestamp"] = .number(Double(message.timestamp))
        object["kind"] = .string(message.kind)
        if let deleted = message.deletedAt { object["deleted_at"] = .number(Double(deleted)) }
        if let pinned = message.pinnedAt { object["pinned_at"] = .number(Double(pinned)) }
        return .object(object)
    }
}
