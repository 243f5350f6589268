import Foundation

/// A conversation's pinned messages, as its members see them now.
public enum PinnedMessages {
    /// How far back pins are looked for.
    public static let historyLimit = 1_000

    /// The pinned messages of `conversation` that are not deleted, oldest first, after bringing reactions and
    /// pins up to date from the server (connect first).
    public static func of(_ conversation: Int64, client: ParleyClient) async throws(ClientError) -> [Message] {
        guard try await client.conversations().contains(where: { $0.id == conversation }) else {
            throw .invalidInput("there is no conversation \(conversation) on this device ('parley conversations' lists them)")
        }
        try await client.messageActions.refreshStates(in: conversation, limit: historyLimit)
        return try client.history.messages(in: conversation, limit: historyLimit).filter { $0.pinned && !$0.deleted }
    }
}
