import ParleyClient
import ParleyTerminal

/// The rows `conversations` lists: each conversation with its name and, for a direct one, the other person's
/// trust status (docs/CLIENT.md §9).
public enum ConversationList {
    /// Every conversation this device knows, message requests included, named as the list names them. A
    /// direct conversation whose other person has no known name yet asks the server for their profile.
    public static func rows(_ client: ParleyClient) async throws(ClientError) -> [ConversationRow] {
        let me = await client.accountID
        var rows: [ConversationRow] = []
        for conversation in try await client.conversations() {
            let other = otherMember(of: conversation, me: me)
            var trust: TrustStatus?
            if let other { trust = try client.trust.status(of: other) }
            let name = if let other { await PersonName.learning(other, client: client) }
                else { conversation.title.map(TerminalText.name) ?? "a group without a title yet" }
            rows.append(ConversationRow(conversation: conversation, trust: trust, name: name))
        }
        return rows
    }

    /// The other person of a direct conversation; nil for a group (or a direct one with no one else in it).
    public static func otherMember(of conversation: Conversation, me: Int64?) -> Int64? {
        conversation.kind == "direct" ? conversation.members.first { $0 != me } : nil
    }
}
