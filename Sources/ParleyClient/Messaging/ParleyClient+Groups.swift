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
        let answer = try await call(API.AddMember.self, .init(conversationID: conversationID, email: email.lowercased()))
        try remember(Contact(accountID: answer.accountID, email: email.lowercased(), displayName: nil))
    }

    /// Removes a member (creator only). Our next message to the group uses a new sender-key chain.
    public func removeMember(_ accountID: Int64, from conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.RemoveMember.self, .init(conversationID: conversationID, accountID: accountID))
        try rekeyGroup(conversationID)
        _ = try await refreshConversation(conversationID)
    }

    /// Leaves a group.
    public func leave(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.LeaveGroup.self, .init(conversationID: conversationID))
        try await refreshConversations()
    }

    /// Invitations waiting for an answer.
    public func invitations() async throws(ClientError) -> [Invitation] {
        try await call(API.ListInvitations.self).invitations.map { Invitation(conversationID: $0.conversationID, creatorID: $0.creatorID) }
    }

    /// Accepts an invitation and joins the group.
    public func accept(_ conversationID: Int64) async throws(ClientError) -> Conversation {
        _ = try await call(API.AcceptInvitation.self, .init(conversationID: conversationID))
        return try await refreshConversation(conversationID)
    }

    /// Declines an invitation.
    public func decline(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.DeclineInvitation.self, .init(conversationID: conversationID))
    }
}

extension ParleyClient {
    /// Deletes a conversation at the server (a direct one: either person; a group: its creator) and its
    /// history on this device.
    public func deleteConversation(_ conversationID: Int64) async throws(ClientError) {
        _ = try await call(API.DeleteConversation.self, .init(conversationID: conversationID))
        try conversationBook.forget(conversationID)
        try await refreshConversations()
    }
}
