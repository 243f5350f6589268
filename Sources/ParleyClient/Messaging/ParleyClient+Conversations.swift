import Foundation
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

    /// Creates a group; the people named are invited and join when they accept.
    public func createGroup(title: String, inviting emails: [String]) async throws(ClientError) -> Conversation {
        guard !title.isEmpty, title.utf8.count <= 256 else { throw .invalidInput("a group title has 1–256 bytes") }
        let id = try await call(API.CreateConversation.self, .init(kind: .group, members: emails.map { $0.lowercased() })).conversationID
        _ = try await refreshConversation(id)
        try await setGroupTitle(title, of: id)
        return try await refreshConversation(id)
    }

    /// Renames a group (its creator only): the title travels end-to-end to the members as a control message.
    public func setGroupTitle(_ title: String, of conversationID: Int64) async throws(ClientError) {
        guard !title.isEmpty, title.utf8.count <= 256 else { throw .invalidInput("a group title has 1–256 bytes") }
        let conversation = try await conversationInfo(conversationID)
        guard conversation.kind == "group" else { throw .invalidInput("conversation \(conversationID) is not a group") }
        guard conversation.creatorID == keys.accountID else {
            throw .invalidInput("only the group's creator renames it")
        }
        let content = MessageContent(id: newClientMessageID(), type: "group_title", text: title)
        let entry = OutboxEntry(conversationID: conversationID, content: content, kind: "group_title", forwardOf: nil,
                                created: dependencies.clock.now())
        try database.write { writer in try self.setTitle(title, of: conversationID, in: writer) }
        // Everyone active now gets it (`deliver` refuses to leave anyone out); whoever joins later gets it from
        // `shareTitle`. Read before sending: someone joining meanwhile gets it twice rather than never.
        let members = try await refreshConversation(conversationID).members
        _ = try await deliver(entry)
        try setTitleHolders(Set(members), of: conversationID)
    }

    /// Conversations this device knows, most recent first (refreshed from the server when connected).
    public func conversations() async throws(ClientError) -> [Conversation] {
        if isConnected { try await refreshConversations() }
        return try database.read { reader in
            try reader.all(Namespace.conversation).map { try JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
        }.sorted { ($0.lastMessageAt ?? 0, $0.id) > ($1.lastMessageAt ?? 0, $1.id) }
    }

    /// Marks a conversation favourite (kept on this device only).
    public func setFavourite(_ favourite: Bool, conversationID: Int64) throws(ClientError) {
        guard var conversation = try storedConversation(conversationID) else { throw .invalidInput("no conversation \(conversationID)") }
        conversation.favourite = favourite
        try saveConversation(conversation)
    }

    /// The conversation, read from the server when not known yet.
    func conversationInfo(_ id: Int64) async throws(ClientError) -> Conversation {
        if let known = try storedConversation(id) { return known }
        return try await refreshConversation(id)
    }

    @discardableResult
    func refreshConversation(_ id: Int64) async throws(ClientError) -> Conversation {
        try await refreshConversations()
        guard let conversation = try storedConversation(id) else {
            throw .server(WireError(.notFound, "no such conversation"))
        }
        return conversation
    }

    /// Reads the server's list and merges it with what only this device knows (titles, favourites).
    func refreshConversations() async throws(ClientError) {
        let list = try await call(API.ListConversations.self).conversations
        var seen: Set<Int64> = []
        for item in list {
            let id = item.conversationID
            seen.insert(id)
            let old = try storedConversation(id)
            let title: String? = if let known = old?.title { known } else { try pendingTitle(id) }
            let conversation = Conversation(
                id: id, kind: item.kind.rawValue, members: item.members, creatorID: item.creatorID,
                title: title, unread: item.unread, favourite: old?.favourite ?? false,
                lastMessageAt: item.lastMessageAt,
                isRequest: item.request == .pending ? true : nil)
            if let old, conversation.kind == "group", !Set(old.members).isSubset(of: Set(conversation.members)) {
                try rekeyGroup(id)   // someone left: our next message starts a chain they never get
            }
            if conversation != old { try saveConversation(conversation) }
        }
        let stale = try database.read { try $0.all(Namespace.conversation).map(\.key) }.compactMap(Int64.init).filter { !seen.contains($0) }
        for id in stale { try database.write { try $0.delete(Namespace.conversation, String(id)) } }
    }

    private func pendingTitle(_ id: Int64) throws(ClientError) -> String? {
        try database.read { try $0.get(Namespace.state, "title/\(id)") }.map { String(decoding: $0, as: UTF8.self) }
    }

    func storedConversation(_ id: Int64) throws(ClientError) -> Conversation? {
        try database.read { try $0.get(Namespace.conversation, String(id)) }
            .flatMap { try? JSONDecoder().decode(Conversation.self, from: Data($0)) }
    }

    func saveConversation(_ conversation: Conversation) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(conversation))
        try database.write { try $0.put(Namespace.conversation, String(conversation.id), bytes) }
    }

    func setTitle(_ title: String?, of conversationID: Int64, in writer: ClientDatabase.Writer) throws {
        guard let bytes = try writer.reader.get(Namespace.conversation, String(conversationID)),
              var conversation = try? JSONDecoder().decode(Conversation.self, from: Data(bytes)) else {
            // Not listed yet: keep the title until the conversation shows up.
            try writer.put(Namespace.state, "title/\(conversationID)", Array((title ?? "").utf8))
            return
        }
        conversation.title = title
        try writer.put(Namespace.conversation, String(conversationID), Array(try JSONEncoder().encode(conversation)))
    }

    /// Someone this device knows.
    public func contact(_ accountID: Int64) throws(ClientError) -> Contact? {
        try database.read { try $0.get(Namespace.contact, String(accountID)) }
            .flatMap { try? JSONDecoder().decode(Contact.self, from: Data($0)) }
    }

    /// Reads someone's profile (name, and e-mail when they show it) and remembers it.
    @discardableResult
    public func learnProfile(_ accountID: Int64) async throws(ClientError) -> Contact {
        let profile = try await call(API.GetProfile.self, .init(accountID: accountID))
        let email = profile.shown["email"] ?? profile.own["email"]?.value
        try remember(Contact(accountID: accountID, email: email, displayName: profile.displayName))
        return try contact(accountID) ?? Contact(accountID: accountID, email: email, displayName: nil)
    }

    func remember(_ contact: Contact) throws(ClientError) {
        var merged = try self.contact(contact.accountID) ?? contact
        merged.email = contact.email ?? merged.email
        merged.displayName = contact.displayName ?? merged.displayName
        let bytes = Array(try! JSONEncoder().encode(merged))
        try database.write { try $0.put(Namespace.contact, String(contact.accountID), bytes) }
    }
}
