import Foundation
import ParleyWire

/// Read marks, reactions, pins, soft delete, deleted-since and forwarding.
enum MessageActionHandlers {
    /// What one `search_messages` costs from the listing allowance, in items: its most work (SQLite's step budget,
    /// about 55,000 message rows) is worth about half a second of an account's allowance at the default 10,000 items a
    /// second, so an account searches twice a second at most, after a burst of twenty (docs/API.md §5).
    static let searchPrice = 5_000

    static func register(in router: inout RequestRouter) {
        router.add(API.MarkRead.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let message = try await accessibleMessage(request.messageID, caller, context)
            return try await markRead(message.conversationID, upTo: message.timestamp, caller, context)
        }
        router.add(API.MarkConversationRead.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let conversation = try await ConversationAccess.activeConversation(id: request.conversationID, caller, context)
            let latest = try await StoreCall.call(context) { try await context.store.latestTimestamp(conversationID: conversation.id) }
            return try await markRead(conversation.id, upTo: latest, caller, context)
        }
        router.add(API.ReactMessage.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let message = try await accessibleMessage(request.messageID, caller, context)
            let emoji = request.emoji
            let present = try await StoreCall.call(context) {
                try await context.store.toggleReaction(messageID: message.id, accountID: caller.accountID, emoji: emoji, now: context.clock.now())
            }
            // What someone sends does not reach those they blocked or who blocked them: a reaction neither.
            let partners = try await StoreCall.call(context) { try await context.store.blockPartners(of: caller.accountID) }
            try await GroupHandlers.notifyMembers(message.conversationID, context, .messageReacted(.init(
                conversationID: message.conversationID, messageID: message.id, accountID: caller.accountID, emoji: emoji, present: present)),
                except: partners)
            return API.ReactMessage.Response(present: present)
        }
        router.add(API.PinMessage.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let message = try await accessibleMessage(request.messageID, caller, context)
            let pinned = request.pinned
            let limit = API.PinMessage.maximumPinned
            let done = try await StoreCall.call(context) {
                try await context.store.setPinned(messageID: message.id, by: pinned ? caller.accountID : nil, limit: limit, now: context.clock.now())
            }
            guard done else {
                throw WireError(.quotaExceeded, "this conversation has \(limit) pinned messages, the most one may have; unpin one first")
            }
            let change = ServerEvent.PinChange(conversationID: message.conversationID, messageID: message.id, accountID: caller.accountID)
            try await GroupHandlers.notifyMembers(message.conversationID, context, pinned ? .messagePinned(change) : .messageUnpinned(change))
            return NoFields()
        }
        router.add(API.GetPinnedMessages.self) { request, environment, context throws(WireError) in
            let conversation = try await ConversationAccess.activeConversation(id: request.conversationID, environment.account, context)
            let pinned = try await StoreCall.call(context) { try await context.store.pinnedMessages(conversationID: conversation.id) }
            return API.MessageSummaries(messages: pinned.map(summary))
        }
        router.add(API.DeleteMessage.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let message = try await accessibleMessage(request.messageID, caller, context)
            guard message.senderID == caller.accountID else { throw WireError(.forbidden, "only the sender deletes a message") }
            try await StoreCall.call(context) { try await context.store.softDelete(messageID: message.id, now: context.clock.now()) }
            try await GroupHandlers.notifyMembers(message.conversationID, context, .messageDeleted(.init(
                conversationID: message.conversationID, messageID: message.id)))
            return NoFields()
        }
        router.add(API.GetMessageState.self) { request, environment, context throws(WireError) in
            try await messageStates(request.messageIDs, environment.account, context)
        }
        router.add(API.GetDeletedSince.self) { request, environment, context throws(WireError) in
            let since = request.since ?? 0
            let deleted = try await StoreCall.call(context) { try await context.store.deletedMessages(accountID: environment.account.accountID, since: since) }
            return API.MessageSummaries(messages: deleted.map(summary))
        }
        router.add(API.SearchMessages.self) { request, environment, context throws(WireError) in
            let query = MessageQuery(
                conversationID: request.conversationID, senderID: request.senderID, kind: request.kind,
                from: request.from, to: request.to, limit: request.limit ?? 100)
            let caller = environment.account
            try context.listingAllowance.pay(accountID: caller.accountID, items: searchPrice, now: context.clock.now())
            let search = try await StoreCall.call(context) { try await context.store.searchMessages(accountID: caller.accountID, query: query) }
            guard case .found(let found) = search else {
                throw WireError(
                    .quotaExceeded,
                    "this search would read more messages than one search may; name a conversation (conversation_id) or a shorter time (from_ts, to_ts)")
            }
            return API.MessageSummaries(messages: found.map(summary))
        }
        router.add(API.ForwardMessage.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let source = try await accessibleMessage(request.messageID, caller, context)
            let forwarded = try await MessageHandlers.send(request.message, caller, context)
            try await StoreCall.call(context) { try await context.store.setForwardedFrom(messageID: forwarded.messageID, source: source.id) }
            return forwarded
        }
    }

    static func markRead(_ conversationID: Int64, upTo timestamp: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.ReadMark {
        let mark = try await StoreCall.call(context) {
            try await context.store.markRead(conversationID: conversationID, accountID: caller.accountID, upTo: timestamp)
        }
        // Someone who has not accepted a request reads without read marks reaching the sender.
        let owed = try await StoreCall.call(context) { try await context.store.requestState(conversationID: conversationID, accountID: caller.accountID) }
        guard owed == nil else { return API.ReadMark(upTo: mark) }
        // Nor do they reach someone the reader blocked or who blocked the reader: a block ends presence both ways.
        let partners = try await StoreCall.call(context) { try await context.store.blockPartners(of: caller.accountID) }
        try await GroupHandlers.notifyMembers(conversationID, context, .messagesRead(.init(
            conversationID: conversationID, accountID: caller.accountID, upTo: mark)), except: partners)
        return API.ReadMark(upTo: mark)
    }

    /// Reactions, pin and deletion of up to 100 messages, so a device that was away catches up on what
    /// it missed as notifications; for the caller's own messages also who has them and who read them. Ids the
    /// caller may not see are left out, as if they did not exist.
    static func messageStates(_ ids: [Int64], _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.GetMessageState.Response {
        var states: [API.MessageState] = []
        var marks: [Int64: [ReadMark]] = [:]  // read marks, once per conversation
        var partners: Set<Int64>?  // blocks either way, once: their reactions, having and reading are not told (as live)
        for id in Set(ids).sorted() {
            guard let message = try await StoreCall.call(context, { try await context.store.messageMetadata(id: id) }),
                  (try? await ConversationAccess.activeConversation(id: message.conversationID, caller, context)) != nil
            else { continue }
            if partners == nil { partners = try await StoreCall.call(context) { try await context.store.blockPartners(of: caller.accountID) } }
            let reactions = try await StoreCall.call(context) { try await context.store.reactions(messageID: id) }
                .filter { !(partners ?? []).contains($0.0) }
            var state = API.MessageState(
                messageID: id, pinned: message.pinnedAt != nil, deleted: message.deletedAt != nil,
                reactions: reactions.map { API.Reaction(accountID: $0.0, emoji: $0.1) })
            if message.senderID == caller.accountID {
                let conversation = message.conversationID
                if marks[conversation] == nil {
                    let all = try await StoreCall.call(context) { try await context.store.readMarks(conversationID: conversation) }
                    marks[conversation] = all.filter { !(partners ?? []).contains($0.accountID) }
                }
                state.deliveredTo = try await StoreCall.call(context) { try await context.store.deliveredTo(messageID: id) }
                    .filter { !(partners ?? []).contains($0) }
                // Only those it was stored for: a mark past a message withheld from its reader (sent while they blocked
                // the sender, or after they declined a request) says nothing of it, also once the block is lifted.
                let storedFor = Set(try await StoreCall.call(context) { try await context.store.storedFor(messageID: id) })
                state.readBy = (marks[conversation] ?? [])
                    .filter { $0.accountID != caller.accountID && $0.covers(message.timestamp) && storedFor.contains($0.accountID) }
                    .map(\.accountID)
            }
            states.append(state)
        }
        return API.GetMessageState.Response(messages: states)
    }

    /// A message in a conversation the caller is an active member of, not deleted.
    static func accessibleMessage(_ id: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> MessageMetadata {
        let message = try await StoreCall.call(context) { try await context.store.messageMetadata(id: id) }
        guard let message, message.deletedAt == nil else { throw WireError(.notFound, "no such message") }
        do {
            _ = try await ConversationAccess.activeConversation(id: message.conversationID, caller, context)
        } catch {
            throw WireError(.notFound, "no such message")
        }
        return message
    }

    static func summary(_ message: MessageMetadata) -> API.MessageSummary {
        API.MessageSummary(
            messageID: message.id, conversationID: message.conversationID, senderID: message.senderID, timestamp: message.timestamp,
            kind: message.kind, deletedAt: message.deletedAt, pinnedAt: message.pinnedAt)
    }
}
