import Foundation
import ParleyClientFormats
import ParleyWire

extension ParleyClient {
    /// Opens (or finds) the direct conversation with `email`.
    public func startConversation(with email: String) async throws(ClientError) -> Conversation {
        let id = try await call(API.CreateConversation.self, .init(kind: .direct, members: [email.lowercased()])).conversationID
        let conversation = try await refreshConversation(id)
        if let other = conversation.members.first(where: { $0 != keys.accountID }) {
            try remember(Contact(accountID: other, email: email.lowercased(), displayName: nil))
        }
        return conversation
    }

    /// The direct conversation with `account`: a known one, else started by the e-mail this device knows.
    func directConversationID(with account: Int64) async throws(ClientError) -> Int64? {
        let me = try identity().accountID
        if let known = try await conversations().first(where: { $0.kind == "direct" && Set($0.members) == [me, account] }) {
            return known.id
        }
        guard let email = try contacts.contact(account)?.email else { return nil }
        return try await startConversation(with: email).id
    }

    /// Conversations this device knows, most recent first (refreshed from the server when connected; as stored when
    /// the server asks to wait before listing a long list again, docs/API.md §11).
    public func conversations() async throws(ClientError) -> [Conversation] {
        if await isConnected { try await refreshConversationsUnlessPaced() }
        return try conversationBook.all()
    }

    /// Reads the server's list, unless the server asks to wait before a long list is listed again (docs/API.md
    /// §11): what is stored stands until the next time, and one changed conversation is still read alone.
    func refreshConversationsUnlessPaced() async throws(ClientError) {
        do {
            try await refreshConversations()
        } catch .server(let refusal) where refusal.code == .rateLimited {}
    }

    /// Marks a conversation favourite (kept on this device only).
    public func setFavourite(_ favourite: Bool, conversationID: Int64) throws(ClientError) {
        try conversationBook.setFavourite(favourite, conversationID: conversationID)
    }

    /// The conversation, read from the server when not known yet.
    func conversationInfo(_ id: Int64) async throws(ClientError) -> Conversation {
        if let known = try storedConversation(id) { return known }
        return try await refreshConversation(id)
    }

    /// Reads one conversation from the server (not the whole list) and stores it.
    @discardableResult
    func refreshConversation(_ id: Int64) async throws(ClientError) -> Conversation {
        try settle(try await conversationBook.fetchUpdate(of: id))
        guard let conversation = try storedConversation(id) else {
            throw .server(WireError(.notFound, "no such conversation"))
        }
        return conversation
    }

    /// Reads the server's list and merges it with what only this device knows.
    func refreshConversations() async throws(ClientError) {
        try settle(try await conversationBook.fetchUpdate())
    }

    /// Stores what the server said; a group someone left gets a new sender-key chain before its new member list is
    /// stored.
    func settle(_ update: ConversationBook.Update) throws(ClientError) {
        for id in update.shrunkGroups { try rekeyGroup(id) }
        try conversationBook.apply(update)
    }

    func storedConversation(_ id: Int64) throws(ClientError) -> Conversation? {
        try conversationBook.stored(id)
    }

    func remember(_ contact: Contact) throws(ClientError) {
        try contacts.remember(contact)
    }
}
