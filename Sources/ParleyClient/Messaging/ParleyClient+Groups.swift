import Foundation
import ParleyWire

extension ParleyClient {
    /// Deletes a conversation at the server (a direct one: either person; a group: its creator) and its
    /// history on this device.
    public func deleteConversation(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.DeleteConversation.self, .init(conversationID: conversationID))
        try conversationBook.forget(conversationID)
        try await conversationBook.refresh()
    }
}
