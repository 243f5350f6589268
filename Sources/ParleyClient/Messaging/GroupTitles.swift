import Foundation
import ParleyClientFormats
import ParleyWire

/// A group's title (docs/CLIENT.md §8): its creator sets it and sends it end to end to the members, and
/// remembers who has the current one, so that each member who joins later gets it too — on the `member_added`
/// notification and at every connect, so a creator who was offline when someone accepted catches up. Sealing
/// and sending to each device is the account's (`AccountCalling`).
struct GroupTitles: Sendable {
    typealias Dependencies = HasAccount & HasServer & HasDatabase & HasRandom & Sendable
    let dependencies: any Dependencies

    private var account: any AccountCalling { dependencies.account }
    private var database: ClientDatabase { dependencies.database }

    /// Renames a group (its creator only): the title travels end to end to the members as a control message.
    func set(_ title: String, of conversationID: Int64) async throws(ClientError) {
        guard !title.isEmpty, title.utf8.count <= 256 else { throw .invalidInput("a group title has 1–256 bytes") }
        let me = try await account.confirmedAccountID()
        let conversation: Conversation
        if let known = try ConversationBook(dependencies: dependencies).stored(conversationID) {
            conversation = known
        } else {
            conversation = try await ConversationBook(dependencies: dependencies).refresh(conversationID)
        }
        guard conversation.kind == "group" else { throw .invalidInput("conversation \(conversationID) is not a group") }
        guard conversation.creatorID == me else { throw .invalidInput("only the group's creator renames it") }
        let content = MessageContent(id: dependencies.random.clientMessageID(), type: "group_title", text: title)
        try database.write { writer in try ConversationBook.setTitle(title, of: conversationID, in: writer) }
        // Everyone active now gets it (sending refuses to leave anyone out); whoever joins later gets it from
        // `share`. Read before sending: someone joining meanwhile gets it twice rather than never.
        let members = try await ConversationBook(dependencies: dependencies).refresh(conversationID).members
        try await account.deliverNow(content, kind: "group_title", to: conversationID)
        try setHolders(Set(members), of: conversationID)
    }

    /// Someone joined a group: if this account created it, they get its title.
    func memberJoined(_ conversationID: Int64) async throws(ClientError) {
        try await share(of: ConversationBook(dependencies: dependencies).refresh(conversationID))
    }

    /// Sends the current title of each group this account created to its members that do not have it yet.
    func shareWithNewMembers() async throws(ClientError) {
        let me = try await account.confirmedAccountID()
        let groups = try database.read { try $0.all(Namespace.conversation) }
            .compactMap { try? JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
            .filter { $0.kind == "group" && $0.creatorID == me && $0.title != nil }
        for group in groups { try await share(of: group) }
    }

    /// Sends `group`'s title to the members that joined since it was last sent (creator only).
    func share(of group: Conversation) async throws(ClientError) {
        let me = try await account.confirmedAccountID()
        guard group.kind == "group", group.creatorID == me, let title = group.title else { return }
        let holders = try holders(group.id)
        let newcomers = group.members.filter { $0 != me && !holders.contains($0) }
        guard !newcomers.isEmpty else { return }
        let content = MessageContent(id: dependencies.random.clientMessageID(), type: "group_title", text: title)
        try await account.sendPairwise(content, kind: "group_title", conversationID: group.id, toMembers: newcomers)
        try setHolders(holders.union(newcomers), of: group.id)
    }

    /// The members known to have the group's current title.
    func holders(_ conversationID: Int64) throws(ClientError) -> Set<Int64> {
        try database.read { try $0.get(Namespace.titleHolders, String(conversationID)) }
            .flatMap { try? JSONDecoder().decode(Set<Int64>.self, from: Data($0)) } ?? []
    }

    private func setHolders(_ members: Set<Int64>, of conversationID: Int64) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(members.sorted()))
        try database.write { try $0.put(Namespace.titleHolders, String(conversationID), bytes) }
    }
}
