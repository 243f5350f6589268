import Foundation
import GRDB
import ParleyWire

/// What one does to a message already sent (docs/CLIENT.md): reactions, pins, deleting for everyone, read marks,
/// and catching up on what others did to stored messages while this device was away. Each change is stored and
/// announced as `ClientEvent.messageUpdated`.
public struct MessageActions: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasEvents & HasClock & Sendable
    let dependencies: any Dependencies

    private var server: any ServerCalling { dependencies.server }

    /// Toggles a reaction; returns whether it is now present.
    @discardableResult
    public func react(_ emoji: String, to messageID: Int64) async throws(ClientError) -> Bool {
        guard ParleyClient.reactions.contains(emoji) else {
            throw .invalidInput("'\(emoji)' is not a reaction; use one of \(ParleyClient.reactions.joined(separator: " "))")
        }
        let present = try await server.call(API.ReactMessage.self, .init(messageID: messageID, emoji: emoji)).present
        let me = try await dependencies.account.confirmedAccountID()
        try updated(messageID) { $0.setReaction(emoji, from: me, present: present) }
        return present
    }

    /// Pins or unpins a message for everyone in the conversation; false when it already was (or was not) pinned, as
    /// the server's list of the conversation's pins says, and nothing changed.
    @discardableResult
    public func pin(_ messageID: Int64, _ pinned: Bool = true) async throws(ClientError) -> Bool {
        if let conversation = try MessageHistory(dependencies: dependencies).message(messageID)?.conversationID {
            let current = try await server.call(API.GetPinnedMessages.self, .init(conversationID: conversation)).messages.contains { $0.messageID == messageID }
            guard current != pinned else {
                try updated(messageID) { $0.pinned = pinned }
                return false
            }
        }
        _ = try await server.call(API.PinMessage.self, .init(messageID: messageID, pinned: pinned))
        try updated(messageID) { $0.pinned = pinned }
        return true
    }

    /// Deletes one of our messages for everyone (its ciphertexts are dropped on the server).
    public func delete(_ messageID: Int64) async throws(ClientError) {
        _ = try await server.call(API.DeleteMessage.self, .init(messageID: messageID))
        try updated(messageID) { $0.markDeleted() }
    }

    /// Marks everything up to `messageID` read; the other members see it.
    public func markRead(_ messageID: Int64) async throws(ClientError) {
        _ = try await server.call(API.MarkRead.self, .init(messageID: messageID))
    }

    /// Marks a whole conversation read.
    public func markRead(conversation conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.MarkConversationRead.self, .init(conversationID: conversationID))
    }

    /// Re-reads reactions, pins and deletions of the newest `limit` stored messages (of one conversation,
    /// or all), catching up on what happened while this device was away.
    public func refreshStates(in conversationID: Int64? = nil, limit: Int = 100) async throws(ClientError) {
        // Local entries (key-change warnings, negative ids) are unknown to the server.
        let ids: [Int64] = try dependencies.database.read { reader in
            if let conversationID {
                try Int64.fetchAll(reader.db, sql: "SELECT message_id FROM messages WHERE conversation_id = ? AND message_id > 0 ORDER BY timestamp DESC LIMIT ?",
                                   arguments: [conversationID, min(limit, 100)])
            } else {
                try Int64.fetchAll(reader.db, sql: "SELECT message_id FROM messages WHERE message_id > 0 ORDER BY timestamp DESC LIMIT ?", arguments: [min(limit, 100)])
            }
        }
        guard !ids.isEmpty else { return }
        for state in try await server.call(API.GetMessageState.self, .init(messageIDs: ids)).messages {
            let id = state.messageID
            var reactions: [String: [Int64]] = [:]
            for reaction in state.reactions { reactions[reaction.emoji, default: []].append(reaction.accountID) }
            guard let stored = try MessageHistory(dependencies: dependencies).message(id) else { continue }
            let sorted = reactions.mapValues { $0.sorted() }
            let deleted = state.deleted, pinned = state.pinned
            // Who has one's own message and who read it only grow: what the live notifications said stays. Someone
            // who asked for it again (they could not decrypt it) is not counted from the original: their device
            // confirmed a copy they could not read; the re-send's own delivery ticks it (§2.1).
            let retried = try SentLog(dependencies: dependencies).record(id)?.resentAccounts ?? []
            let learnt = (state.deliveredTo ?? []).filter { !retried.contains($0) && !stored.deliveredTo.contains($0) }
            let delivered = stored.deliveredTo + learnt
            let read = Self.union(stored.readBy, state.readBy?.filter { !retried.contains($0) })
            if stored.reactions != sorted || stored.pinned != pinned || (deleted && !stored.deleted)
                || delivered != stored.deliveredTo || read != stored.readBy {
                try updated(id) { message in
                    message.reactions = sorted
                    message.pinned = pinned
                    message.deliveredTo = delivered
                    message.readBy = read
                    if deleted { message.markDeleted() }
                }
            }
        }
    }

    /// `known` with what `learnt` adds, sorted; nil while neither names anyone.
    private static func union(_ known: [Int64]?, _ learnt: [Int64]?) -> [Int64]? {
        let all = Set((known ?? []) + (learnt ?? []))
        return all.isEmpty ? known : all.sorted()
    }

    /// Picks up deletions that happened while this device was away.
    public func syncDeletions(since: Int64) async throws(ClientError) {
        for item in try await server.call(API.GetDeletedSince.self, .init(since: since)).messages {
            try updated(item.messageID) { $0.markDeleted() }
        }
    }

    /// Applies `change` to a stored message, and announces it.
    private func updated(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        if let message = try MessageHistory(dependencies: dependencies).update(id, change) {
            dependencies.events.yield(.messageUpdated(message))
        }
    }
}

extension ParleyClient {
    /// The reactions a message may carry.
    public static let reactions = API.ReactMessage.reactions
}

extension Message {
    mutating func setReaction(_ emoji: String, from account: Int64, present: Bool) {
        var who = Set(reactions[emoji] ?? [])
        if present { who.insert(account) } else { who.remove(account) }
        reactions[emoji] = who.isEmpty ? nil : who.sorted()
    }

    mutating func markDeleted() {
        deleted = true
        text = ""
    }
}
