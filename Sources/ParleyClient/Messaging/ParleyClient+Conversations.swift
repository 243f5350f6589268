import Foundation
import ParleyClientFormats
import ParleyWire

extension ParleyClient {
    /// Opens (or finds) the direct conversation with `email`.
    public nonisolated func startConversation(with email: String) async throws(ClientError) -> Conversation {
        try await conversationBook.start(with: email)
    }

    /// Conversations this device knows, most recent first (refreshed from the server when connected; as stored when
    /// the server asks to wait before listing a long list again, docs/API.md §11).
    public nonisolated func conversations() async throws(ClientError) -> [Conversation] {
        try await conversationBook.listed()
    }

    /// Marks a conversation favourite (kept on this device only).
    public func setFavourite(_ favourite: Bool, conversationID: Int64) throws(ClientError) {
        try conversationBook.setFavourite(favourite, conversationID: conversationID)
    }
}
