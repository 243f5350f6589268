import Foundation
import ParleyWire

/// A pending invitation to a group.
public struct Invitation: Sendable, Equatable {
    /// The group.
    public let conversationID: Int64
    /// Who created the group.
    public let creatorID: Int64
}

/// Groups (docs/CLIENT.md §8): making one, its members, invitations. What is sent end to end (the title) and the
/// sender-key chain a departure renews are the account's, reached through its link.
public struct Groups: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasRandom & HasClock & Sendable
    let dependencies: any Dependencies

    private var server: any ServerCalling { dependencies.server }
    private var account: any AccountCalling { dependencies.account }

    /// Creates a group; the people named are invited and join when they accept.
    public func create(title: String, inviting emails: [String]) async throws(ClientError) -> Conversation {
        try GroupTitles.check(title)
        // Each person once, however often named.
        var seen = Set<String>()
        let addresses = emails.map { $0.lowercased() }.filter { seen.insert($0).inserted }
        let created = try await server.call(API.CreateConversation.self, .init(kind: .group, members: addresses))
        let id = created.conversationID
        // Whom it invited, by the address used: entries in the group name them by it (`ContactBook.label`).
        if let accounts = created.memberIDs, accounts.count == addresses.count {
            let contacts = ContactBook(dependencies: dependencies)
            for (account, email) in zip(accounts, addresses) { try contacts.remember(Contact(accountID: account, email: email, displayName: nil)) }
        }
        _ = try await ConversationBook(dependencies: dependencies).refresh(id)
        try await GroupTitles(dependencies: dependencies).set(title, of: id)
        return try await ConversationBook(dependencies: dependencies).refresh(id)
    }

    /// A group as the server has it now (its active members, the caller included), stored on this device too;
    /// `invalidInput` when the conversation is a direct one.
    public func group(_ conversationID: Int64) async throws(ClientError) -> Conversation {
        let conversation = try await ConversationBook(dependencies: dependencies).refresh(conversationID)
        guard conversation.kind == "group" else { throw .invalidInput("conversation \(conversationID) is not a group") }
        return conversation
    }

    /// Renames a group (its creator only): the title travels end-to-end to the members as a control message.
    public func rename(_ conversationID: Int64, to title: String) async throws(ClientError) {
        try await GroupTitles(dependencies: dependencies).set(title, of: conversationID)
    }

    /// Invites `email` to a group (any member may).
    public func add(_ email: String, to conversationID: Int64) async throws(ClientError) {
        let answer = try await server.call(API.AddMember.self, .init(conversationID: conversationID, email: email.lowercased()))
        try ContactBook(dependencies: dependencies).remember(Contact(accountID: answer.accountID, email: email.lowercased(), displayName: nil))
    }

    /// Removes a member (creator only). Our next message to the group uses a new sender-key chain.
    public func remove(_ accountID: Int64, from conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.RemoveMember.self, .init(conversationID: conversationID, accountID: accountID))
        try await account.rekeyGroup(conversationID)
        _ = try await ConversationBook(dependencies: dependencies).refresh(conversationID)
    }

    /// Removes the member with this e-mail (creator only): looked up among this device's contacts, else on the
    /// server. Returns their account id.
    @discardableResult
    public func remove(_ email: String, from conversationID: Int64) async throws(ClientError) -> Int64 {
        if email.trimmingCharacters(in: .whitespaces).lowercased() == dependencies.email.lowercased() {
            throw .invalidInput("\(email) is you: to leave the group, 'parley group leave \(conversationID)'")
        }
        let member = try await account.resolveContact(email)
        try await remove(member, from: conversationID)
        return member
    }

    /// Leaves a group.
    public func leave(_ conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.LeaveGroup.self, .init(conversationID: conversationID))
        // Off the list first, so the refresh does not tell the person they are no longer in it (`MembershipNotices`).
        let book = ConversationBook(dependencies: dependencies)
        try book.unlist(conversationID)
        try await book.refresh()
    }

    /// Invitations waiting for an answer.
    public func invitations() async throws(ClientError) -> [Invitation] {
        try await server.call(API.ListInvitations.self).invitations.map { Invitation(conversationID: $0.conversationID, creatorID: $0.creatorID) }
    }

    /// Accepts an invitation and joins the group.
    public func accept(_ conversationID: Int64) async throws(ClientError) -> Conversation {
        _ = try await server.call(API.AcceptInvitation.self, .init(conversationID: conversationID))
        return try await ConversationBook(dependencies: dependencies).refresh(conversationID)
    }

    /// Declines an invitation.
    public func decline(_ conversationID: Int64) async throws(ClientError) {
        _ = try await server.call(API.DeclineInvitation.self, .init(conversationID: conversationID))
    }
}

