import ParleyClient

/// A message `search` found, with where it is and the messages around it.
public struct SearchHit: Sendable {
    /// The message found.
    public let message: Message
    /// Its conversation as people name it: the other person of a direct one, a group's title.
    public let place: String
    /// The message before it in its conversation, if any.
    public let before: Message?
    /// The message after it, if any.
    public let after: Message?
}

/// The hits of a search, each with its place and neighbours.
public enum SearchResults {
    /// How far back a hit's neighbours are looked for.
    public static let historyLimit = 1_000

    /// `found` as hits: what this device cannot read about a hit (its conversation, its history) is left out.
    public static func hits(_ found: [Message], client: ParleyClient) async -> [SearchHit] {
        let conversations = (try? await client.conversations()) ?? []
        let me = await client.accountID
        var hits: [SearchHit] = []
        for message in found {
            let conversation = conversations.first { $0.id == message.conversationID }
            let other = conversation.flatMap { ConversationList.otherMember(of: $0, me: me) }
            let place = if let other { await PersonName.of(other, client: client) }
                else { conversation?.title ?? "conversation \(message.conversationID)" }
            let history = (try? client.history.messages(in: message.conversationID, limit: historyLimit)) ?? []
            let (before, after) = neighbours(of: message.id, in: history)
            hits.append(SearchHit(message: message, place: place, before: before, after: after))
        }
        return hits
    }

    /// The messages just before and after the one with id `id` in `history`; nil where there is none, or when
    /// the message is not in it.
    public static func neighbours(of id: Int64, in history: [Message]) -> (before: Message?, after: Message?) {
        guard let index = history.firstIndex(where: { $0.id == id }) else { return (nil, nil) }
        return (index > 0 ? history[index - 1] : nil, index + 1 < history.count ? history[index + 1] : nil)
    }
}
