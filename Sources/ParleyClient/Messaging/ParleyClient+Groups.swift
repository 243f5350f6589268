import Foundation
import ParleyWire

/// A pending invitation to a group.
public struct Invitation: Sendable, Equatable {
    /// The group.
    public let conversationID: Int64
    /// Who created the group.
    public let creatorID: Int64
}

extension ParleyClient {
    /// Invites `email` to a group (any member may).
    public func addMember(_ email: String, to conversationID: Int64) async throws(ClientError) {
        let answer = try await call("add_member", ["conversation_id": .int(conversationID), "email": .string(email.lowercased())])
        try remember(Contact(accountID: try answer.int("account_id"), email: email.lowercased(), displayName: nil))
    }

    /// Removes a member (creator only). Our next message to the group uses a new sender-key chain.
    public func removeMember(_ accountID: Int64, from conversationID: Int64) async throws(ClientError) {
        _ = try await call("remove_member", ["conversation_id": .int(conversationID), "account_id": .int(accountID)])
        try rekeyGroup(conversationID)
        _ = try await refreshConversation(conversationID)
    }

    /// Leaves a group.
    public func leave(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call("leave_group", ["conversation_id": .int(conversationID)])
        try await refreshConversations()
    }

    /// Invitations waiting for an answer.
    public func invitations() async throws(ClientError) -> [Invitation] {
        try await call("list_invitations").objects("invitations").map { item throws(ClientError) in
            Invitation(conversationID: try item.int("conversation_id"), creatorID: try item.int("creator_id"))
        }
    }

    /// Accepts an invitation and joins the group.
    public func accept(_ conversationID: Int64) async throws(ClientError) -> Conversation {
        _ = try await call("accept_invitation", ["conversation_id": .int(conversationID)])
        return try await refreshConversation(conversationID)
    }

    /// Declines an invitation.
    public func decline(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call("decline_invitation", ["conversation_id": .int(conversationID)])
    }
}

extension ParleyClient {
    /// Deletes a conversation at the server (a direct one: either person; a group: its creator) and its
    /// history on this device.
    public func deleteConversation(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call("delete_conversation", ["conversation_id": .int(conversationID)])
        try database.write { writer in
            try writer.db.execute(sql: "DELETE FROM search_terms WHERE message_id IN (SELECT message_id FROM messages WHERE conversation_id = ?)",
                                  arguments: [conversationID])
            try writer.db.execute(sql: "DELETE FROM messages WHERE conversation_id = ?", arguments: [conversationID])
            try writer.delete(Namespace.conversation, String(conversationID))
        }
        try await refreshConversations()
    }
}
