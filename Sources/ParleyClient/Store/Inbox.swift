import Foundation
import ParleyWire

/// What is new to the person (docs/CLIENT.md §5): messages stored on this device and not shown yet, whichever
/// command or screen fetched them — receiving cannot be what makes a message old, since any command that connects
/// also receives. Message requests' messages are set apart (they are answered in their own list), and what was shown
/// moves the read marks others see.
public struct Inbox: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & Sendable
    let dependencies: any Dependencies

    /// New messages, and how many new ones wait in each message request (conversation id → count).
    public struct New: Sendable, Equatable {
        /// Messages not shown before, oldest first, message requests' left out.
        public var messages: [Message]
        /// New messages in message requests, by conversation.
        public var inRequests: [Int64: Int]
    }

    /// Fetches from the server, then takes every message not shown yet; those of message requests are only counted.
    /// All count as shown once returned — unless `marking` is false: then the returned messages stay new until
    /// `markSeen` (a command marks what it printed, so output that broke off shows again next time).
    public func takeNew(marking: Bool = true) async throws(ClientError) -> New {
        try await dependencies.account.syncNow()
        var messages = try takeUnseen(marking: marking)
        let pending = Set(try await ConversationBook(dependencies: dependencies).listed().filter { $0.isRequest == true }.map(\.id))
        var inRequests: [Int64: Int] = [:]
        for message in messages where pending.contains(message.conversationID) { inRequests[message.conversationID, default: 0] += 1 }
        if !marking { try markSeen(messages.filter { pending.contains($0.conversationID) }.map(\.id)) }  // counted, not shown
        messages.removeAll { pending.contains($0.conversationID) }
        return New(messages: messages, inRequests: inRequests)
    }

    /// Messages no command or screen has shown yet (of one conversation, or all), oldest first; they count as
    /// shown once returned, unless `marking` is false (what is never shown — control messages — counts at once).
    public func takeUnseen(in conversationID: Int64? = nil, marking: Bool = true) throws(ClientError) -> [Message] {
        let ids = try dependencies.database.read { try $0.all(Namespace.unseen) }.compactMap { Int64($0.key) }
        let history = MessageHistory(dependencies: dependencies)
        var messages: [Message] = [], taken: [Int64] = []
        for id in ids {
            let message = try history.message(id)
            guard conversationID == nil || message?.conversationID == conversationID else { continue }
            if let message, !message.isHiddenControl {
                messages.append(message)
                if marking { taken.append(id) }
            } else {
                taken.append(id)
            }
        }
        try markSeen(taken)
        return messages.sorted { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
    }

    /// Marks messages as shown (a screen that displayed them as they arrived, a history that was read).
    public func markSeen(_ ids: [Int64]) throws(ClientError) {
        guard !ids.isEmpty else { return }
        try dependencies.database.write { writer in for id in ids { try writer.delete(Namespace.unseen, String(id)) } }
    }

    /// Moves the read mark of each conversation to the newest of `shown` from someone else, so its senders see
    /// their read ticks; best effort (a mark that fails is set by the next read).
    public func markRead(_ shown: [Message]) async {
        let own = try? await dependencies.account.confirmedAccountID()
        let newest = Dictionary(grouping: shown.filter { $0.id > 0 && $0.senderID != own }, by: \.conversationID)
            .compactMapValues { $0.map(\.id).max() }
        for id in newest.values { _ = try? await dependencies.server.call(API.MarkRead.self, .init(messageID: id)) }
    }
}
