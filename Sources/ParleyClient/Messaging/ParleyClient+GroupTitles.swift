import Foundation
import ParleyClientFormats
import ParleyProtocol
import ParleyWire

/// A group's title reaches everyone who joins, not only those who were members when it was set
/// (docs/CLIENT.md §8): the creator remembers who has the current title and sends it, end to end, to each
/// member who joined since — on the `member_added` notification and at every connect, so a creator who was
/// offline when someone accepted catches up.
extension ParleyClient {
    /// Sends the current title of each group this account created to its members that do not have it yet.
    func shareTitlesWithNewMembers() async throws(ClientError) {
        let (me, _) = try identity()
        let groups = try database.read { try $0.all(Namespace.conversation) }
            .compactMap { try? JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
            .filter { $0.kind == "group" && $0.creatorID == me && $0.title != nil }
        for group in groups { try await shareTitle(of: group) }
    }

    /// Sends `group`'s title to the members that joined since it was last sent (creator only).
    func shareTitle(of group: Conversation) async throws(ClientError) {
        let (me, myDevice) = try identity()
        guard group.kind == "group", group.creatorID == me, let title = group.title else { return }
        let holders = try titleHolders(group.id)
        let newcomers = group.members.filter { $0 != me && !holders.contains($0) }
        guard !newcomers.isEmpty else { return }
        let content = MessageContent(id: newClientMessageID(), type: "group_title", text: title)
        for address in try await recipientDevices(of: newcomers, me: me, myDevice: myDevice) {
            let encrypted = try sessions.encrypt(content.encoded(), for: address)
            _ = try await call(API.SendMessage.self, .init(
                conversationID: group.id, clientMessageID: newClientMessageID(), kind: "group_title",
                envelopes: [Sessions.envelope(address, .pairwise(encrypted))],
                toAccountID: Int64(address.accountId)!, toDeviceID: address.deviceId))
        }
        try setTitleHolders(holders.union(newcomers), of: group.id)
    }

    /// The members known to have the group's current title.
    func titleHolders(_ conversationID: Int64) throws(ClientError) -> Set<Int64> {
        try database.read { try $0.get(Namespace.titleHolders, String(conversationID)) }
            .flatMap { try? JSONDecoder().decode(Set<Int64>.self, from: Data($0)) } ?? []
    }

    func setTitleHolders(_ members: Set<Int64>, of conversationID: Int64) throws(ClientError) {
        let bytes = Array(try! JSONEncoder().encode(members.sorted()))
        try database.write { try $0.put(Namespace.titleHolders, String(conversationID), bytes) }
    }
}
