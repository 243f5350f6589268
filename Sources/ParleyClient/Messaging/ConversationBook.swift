import Foundation
import ParleyWire

/// The conversations this device knows (namespace `conversation`): the server's list merged with what only this
/// device keeps (titles, favourites). Reading the server's list and storing it are two steps, so the
/// `SessionOwner` can start a new sender-key chain for a group someone left before the new member list is stored
/// (`AccountCalling.settleConversations`).
struct ConversationBook: Sendable {
    typealias Dependencies = HasServer & HasDatabase & HasAccount & Sendable
    let dependencies: any Dependencies

    /// Conversations this device knows, most recent first (refreshed from the server when connected; as stored when
    /// the server asks to wait before listing a long list again, docs/API.md §11).
    func listed() async throws(ClientError) -> [Conversation] {
        if await dependencies.server.isConnected { try await refreshUnlessPaced() }
        return try all()
    }

    /// Reads the server's list and stores it.
    func refresh() async throws(ClientError) {
        try await dependencies.account.settleConversations(try await fetchUpdate())
    }

    /// Reads the server's list, unless the server asks to wait before a long list is listed again (docs/API.md
    /// §11): what is stored stands until the next time, and one changed conversation is still read alone.
    func refreshUnlessPaced() async throws(ClientError) {
        do {
            try await refresh()
        } catch .server(let refusal) where refusal.code == .rateLimited {}
    }

    /// Reads one conversation from the server (not the whole list), stores it and returns it.
    @discardableResult
    func refresh(_ id: Int64) async throws(ClientError) -> Conversation {
        try await dependencies.account.settleConversations(try await fetchUpdate(of: id))
        guard let conversation = try stored(id) else {
            // Said as what it is to the person: a conversation whose history is here went away at the server.
            if try !MessageHistory(dependencies: dependencies).messages(in: id, limit: 1).isEmpty {
                throw .invalidInput("conversation \(id) is no longer on the server (deleted, or you are no longer in it); its history stays on this device")
            }
            throw .server(WireError(.notFound, "no such conversation"))
        }
        return conversation
    }

    /// The conversation as stored, else read from the server.
    func info(_ id: Int64) async throws(ClientError) -> Conversation {
        if let known = try stored(id) { return known }
        return try await refresh(id)
    }

    /// Opens (or finds) the direct conversation with `email`, and remembers them by it.
    func start(with email: String) async throws(ClientError) -> Conversation {
        if !dependencies.email.isEmpty, email.trimmingCharacters(in: .whitespaces).lowercased() == dependencies.email.lowercased() {
            throw .invalidInput("\(email) is your own address: a conversation is with someone else")
        }
        let id: Int64
        do {
            id = try await dependencies.server.call(API.CreateConversation.self, .init(kind: .direct, members: [email.lowercased()])).conversationID
        } catch .server(let refusal) where refusal.code == .notFound {
            // Someone this device knew, whose account was deleted: said so, not "check the spelling".
            if try ContactBook(dependencies: dependencies).deletedAccountHad(email) {
                throw .invalidInput(ContactBook.deletedAccount(email.lowercased()))
            }
            throw .server(refusal)
        }
        let conversation = try await refresh(id)
        let me = try? await dependencies.account.confirmedAccountID()
        if let other = conversation.members.first(where: { $0 != me }) {
            try ContactBook(dependencies: dependencies).remember(Contact(accountID: other, email: email.lowercased(), displayName: nil))
        }
        return conversation
    }

    /// The direct conversation with `account`: a known one, else started by the e-mail this device knows.
    func direct(with account: Int64) async throws(ClientError) -> Int64? {
        let me = try await dependencies.account.confirmedAccountID()
        if let known = try await listed().first(where: { $0.kind == "direct" && Set($0.members) == [me, account] }) {
            return known.id
        }
        guard let email = try ContactBook(dependencies: dependencies).contact(account)?.email else { return nil }
        return try await start(with: email).id
    }

    /// What the server's list changes here.
    struct Update: Sendable, Equatable {
        /// Conversations new or different from what is stored.
        var changed: [Conversation] = []
        /// Groups someone left since this device last looked: the next message must start a chain they never get.
        var shrunkGroups: [Int64] = []
        /// Conversations the server no longer lists.
        var gone: [Int64] = []
        /// Groups whose members changed (this account aside).
        var memberChanges: [MemberChange] = []
        /// What to tell the person about groups whose members changed (`MembershipNotices`).
        var notices: [Notice] = []
    }

    /// Who is no longer in a group and who joined it, since this device last looked.
    struct MemberChange: Sendable, Equatable {
        let conversationID: Int64
        let left: [Int64]
        let joined: [Int64]
    }

    /// A local entry to add to a conversation.
    struct Notice: Sendable, Equatable {
        let conversationID: Int64
        let text: String
    }

    /// Reads the server's list and compares it with what is stored; nothing is stored yet.
    func fetchUpdate() async throws(ClientError) -> Update {
        let list = try await dependencies.server.call(API.ListConversations.self).conversations
        let me = try? await dependencies.account.confirmedAccountID()
        var update = Update()
        for item in list { try compare(item, into: &update, me: me) }
        let seen = Set(list.map(\.conversationID))
        update.gone = try dependencies.database.read { try $0.all(Namespace.conversation).map(\.key) }
            .compactMap(Int64.init).filter { !seen.contains($0) }
        try await notice(into: &update, me: me)
        return update
    }

    /// Reads one conversation from the server (`get_conversation`, not the whole list) and compares it with what is
    /// stored; one the server does not give any more is `gone`. A server from before `get_conversation` is read whole.
    func fetchUpdate(of conversationID: Int64) async throws(ClientError) -> Update {
        var update = Update()
        let me = try? await dependencies.account.confirmedAccountID()
        do {
            try compare(try await dependencies.server.call(API.GetConversation.self, .init(conversationID: conversationID)), into: &update, me: me)
        } catch .server(let refusal) where refusal.code == .notFound {
            if try stored(conversationID) != nil { update.gone = [conversationID] }
        } catch .server(let refusal) where refusal.code == .unknownMethod {
            return try await fetchUpdate()
        }
        try await notice(into: &update, me: me)
        return update
    }

    /// What the server's `item` changes of the stored conversation, added to `update`.
    private func compare(_ item: API.ConversationSummary, into update: inout Update, me: Int64?) throws(ClientError) {
        let id = item.conversationID
        let old = try stored(id)
        let title: String? = if let known = old?.title { known } else { try pendingTitle(id) }
        var conversation = Conversation(
            id: id, kind: item.kind.rawValue, members: item.members, creatorID: item.creatorID,
            title: title, unread: item.unread, favourite: old?.favourite ?? false,
            lastMessageAt: item.lastMessageAt,
            isRequest: item.request == .pending ? true : nil)
        conversation.formerCreators = Self.formerCreators(old, now: item.creatorID)
        if let old, conversation.kind == "group", !Set(old.members).isSubset(of: Set(conversation.members)) {
            update.shrunkGroups.append(id)
        }
        if conversation != old { update.changed.append(conversation) }
        if let old, conversation.kind == "group" {
            let left = Set(old.members).subtracting(conversation.members).subtracting([me].compactMap { $0 })
            let joined = Set(conversation.members).subtracting(old.members).subtracting([me].compactMap { $0 })
            if !left.isEmpty || !joined.isEmpty { update.memberChanges.append(MemberChange(conversationID: id, left: left.sorted(), joined: joined.sorted())) }
        }
    }

    /// The notices for the groups in `update`: who is no longer in one and who joined, named as this device knows
    /// them (a member whose name it does not know yet is looked up, so the entry names them as their messages are
    /// signed, not only by an address or an account number), and the
    /// groups this account is no longer in.
    private func notice(into update: inout Update, me: Int64?) async throws(ClientError) {
        let contacts = ContactBook(dependencies: dependencies)
        for change in update.memberChanges {
            for account in change.left + change.joined where try contacts.contact(account)?.displayName == nil {
                _ = try? await contacts.learnProfile(account)
            }
            update.notices += try MembershipNotices.texts(left: change.left, joined: change.joined, name: contacts.label)
                .map { Notice(conversationID: change.conversationID, text: $0) }
        }
        for id in update.gone {
            // A request this account never answered, declined or blocked is not news when it goes.
            guard let conversation = try stored(id), conversation.isRequest != true else { continue }
            if let text = MembershipNotices.removed(from: conversation) {
                update.notices.append(Notice(conversationID: id, text: text))
            } else if conversation.kind == "direct", let other = conversation.members.first(where: { $0 != me }) {
                // A direct conversation goes when the other person deletes it or their account: which, the server says.
                let deleted = await accountIsDeleted(other)
                if deleted { try contacts.markDeleted(other) }
                update.notices.append(Notice(conversationID: id, text: MembershipNotices.directGone(
                    other: try contacts.label(other), accountDeleted: deleted)))
            }
        }
    }

    /// The creators before `creator`: those `old` knew, and its creator if that is not `creator` any more.
    static func formerCreators(_ old: Conversation?, now creator: Int64) -> [Int64]? {
        guard let old else { return nil }
        guard old.creatorID != creator else { return old.formerCreators }
        return (old.formerCreators ?? []).filter { $0 != old.creatorID } + [old.creatorID]
    }

    /// Stores an update, in one transaction.
    func apply(_ update: Update) throws(ClientError) {
        try dependencies.database.write { writer in
            for var conversation in update.changed {
                // What only this device keeps is taken as it is now, not as it was when the server's list was compared:
                // a title that arrived while the update was being made (its names looked up) must not be lost.
                if let bytes = try writer.reader.get(Namespace.conversation, String(conversation.id)),
                   let current = try? JSONDecoder().decode(Conversation.self, from: Data(bytes)) {
                    conversation.title = current.title ?? conversation.title
                    conversation.favourite = current.favourite
                    conversation.formerCreators = Self.formerCreators(current, now: conversation.creatorID) ?? conversation.formerCreators
                }
                try writer.put(Namespace.conversation, String(conversation.id), Array(try JSONEncoder().encode(conversation)))
            }
            for id in update.gone { try writer.delete(Namespace.conversation, String(id)) }
            try MembershipNotices.store(update.notices, now: Int64(Date().timeIntervalSince1970 * 1000), in: writer)
        }
    }

    /// Whether the server says `account` no longer exists (a profile it cannot find); false when it cannot be asked.
    private func accountIsDeleted(_ account: Int64) async -> Bool {
        do {
            _ = try await dependencies.server.call(API.GetProfile.self, .init(accountID: account))
            return false
        } catch .server(let refusal) where refusal.code == .notFound {
            return true
        } catch {
            return false
        }
    }

    /// Every stored conversation, most recent first.
    func all() throws(ClientError) -> [Conversation] {
        try dependencies.database.read { reader in
            try reader.all(Namespace.conversation).map { try JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
        }.sorted { ($0.lastMessageAt ?? 0, $0.id) > ($1.lastMessageAt ?? 0, $1.id) }
    }

    /// One stored conversation.
    func stored(_ id: Int64) throws(ClientError) -> Conversation? {
        try dependencies.database.read { try $0.get(Namespace.conversation, String(id)) }
            .flatMap { try? JSONDecoder().decode(Conversation.self, from: Data($0)) }
    }

    /// Stores `conversation` as it is.
    func save(_ conversation: Conversation) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(conversation))
        try dependencies.database.write { try $0.put(Namespace.conversation, String(conversation.id), bytes) }
    }

    /// Marks a conversation favourite (kept on this device only).
    func setFavourite(_ favourite: Bool, conversationID: Int64) throws(ClientError) {
        guard var conversation = try stored(conversationID) else { throw .invalidInput("no conversation \(conversationID)") }
        conversation.favourite = favourite
        try save(conversation)
    }

    /// Sets a group's title within `writer`'s transaction; a conversation not listed yet keeps it until it shows up.
    static func setTitle(_ title: String?, of conversationID: Int64, in writer: ClientDatabase.Writer) throws {
        guard let bytes = try writer.reader.get(Namespace.conversation, String(conversationID)),
              var conversation = try? JSONDecoder().decode(Conversation.self, from: Data(bytes)) else {
            try writer.put(Namespace.state, "title/\(conversationID)", Array((title ?? "").utf8))
            return
        }
        conversation.title = title
        try writer.put(Namespace.conversation, String(conversationID), Array(try JSONEncoder().encode(conversation)))
    }

    /// Takes a conversation off the stored list, keeping its history (leaving a group: not news to its person).
    func unlist(_ conversationID: Int64) throws(ClientError) {
        try dependencies.database.write { try $0.delete(Namespace.conversation, String(conversationID)) }
    }

    /// Removes a conversation and its history from this device.
    func forget(_ conversationID: Int64) throws(ClientError) {
        try dependencies.database.write { writer in
            try writer.db.execute(sql: "DELETE FROM search_terms WHERE message_id IN (SELECT message_id FROM messages WHERE conversation_id = ?)",
                                  arguments: [conversationID])
            try writer.db.execute(sql: "DELETE FROM messages WHERE conversation_id = ?", arguments: [conversationID])
            try writer.delete(Namespace.conversation, String(conversationID))
        }
    }

    private func pendingTitle(_ id: Int64) throws(ClientError) -> String? {
        try dependencies.database.read { try $0.get(Namespace.state, "title/\(id)") }.map { String(decoding: $0, as: UTF8.self) }
    }
}
