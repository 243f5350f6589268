import Foundation

/// What `read` shows first (docs/CLIENT.md §5): a conversation's history, or everything new, with the
/// messages of message requests only counted.
public struct MessageReading: Sendable {
    /// The messages to show and, by message request, how many new ones wait there.
    public struct Batch: Sendable, Equatable {
        /// The messages, oldest first.
        public var messages: [Message]
        /// New messages in message requests, by conversation id (answered in their own list).
        public var inRequests: [Int64: Int]

        /// A batch of `messages`, with `inRequests` counted.
        public init(messages: [Message], inRequests: [Int64: Int] = [:]) {
            self.messages = messages
            self.inRequests = inRequests
        }
    }

    /// The open account.
    public let client: ParleyClient
    /// The conversation whose history to show; nil for everything new.
    public let conversation: Int64?
    /// How many messages of a conversation's history.
    public let limit: Int

    /// Reading `conversation` (or everything new) through `client`, at most `limit` messages of history.
    public init(client: ParleyClient, conversation: Int64?, limit: Int) {
        self.client = client
        self.conversation = conversation
        self.limit = limit
    }

    /// The first batch, still new until `shown(_:)`. Offline, only a conversation's stored history can be shown: nothing
    /// new can be fetched. Online, a conversation is brought up to date first (messages, reactions, pins).
    public func first(offline: Bool) async throws(ClientError) -> Batch {
        let batch: Batch
        if offline, let conversation {
            batch = Batch(messages: try client.history.messages(in: conversation, limit: limit))
        } else if offline {
            batch = Batch(messages: [])
        } else if let conversation {
            _ = try await client.sync()
            try await client.messageActions.refreshStates(in: conversation, limit: limit)
            batch = Batch(messages: try client.history.messages(in: conversation, limit: limit))
        } else {
            // The list first: a group whose members changed says so (`MembershipNotices`) among what is new.
            _ = try? await client.conversations()
            // New means not shown yet, whichever command happened to fetch it.
            let new = try await client.inbox.takeNew(marking: false)
            batch = Batch(messages: new.messages, inRequests: new.inRequests)
        }
        if let conversation, batch.messages.isEmpty, try await !client.conversations().contains(where: { $0.id == conversation }) {
            // Not "no messages yet": a conversation this device is not in (someone else's id, a typo) has no history.
            throw .invalidInput("there is no conversation \(conversation) on this device ('parley conversations' lists them)")
        }
        return batch
    }

    /// Marks `batch`'s messages as shown, once they were: a `read` whose output broke off (`parley read | head -1`)
    /// leaves the rest new for the next one.
    public func shown(_ batch: Batch) throws(ClientError) {
        try client.inbox.markSeen(batch.messages.map(\.id))
    }
}
