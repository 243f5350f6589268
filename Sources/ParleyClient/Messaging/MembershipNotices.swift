import Foundation

/// Local entries that say a group's members changed (docs/CLIENT.md §8): who is no longer in it, who joined, and
/// that this account is no longer in it. They are written when the server's list shows the change — at a connect, a
/// `conversations`, a notification — so a person who only runs one-shot commands is told as well as one who is
/// connected. The server does not say whether someone left or was removed, so the words do not either.
enum MembershipNotices {
    /// The `kind` of a membership entry (never sent anywhere).
    static let kind = "membership"

    /// The entries for a group's changed members; `name` says who an account is.
    static func texts(left: [Int64], joined: [Int64], name: (Int64) throws(ClientError) -> String) throws(ClientError) -> [String] {
        var texts: [String] = []
        for account in left { texts.append("\(try name(account)) is no longer in this group.") }
        for account in joined { texts.append("\(try name(account)) joined this group.") }
        return texts
    }

    /// The entry for a group this account is no longer in (it did not leave from this device: leaving forgets it).
    static func removed(from group: Conversation) -> String? {
        guard group.kind == "group" else { return nil }
        let title = group.title.map { " “\($0)”" } ?? ""
        return "You are no longer a member of the group\(title): its new messages do not reach you. Its history stays on this device."
    }

    /// The entry for a direct conversation the server no longer lists (not deleted from this device).
    static func directGone(other: String, accountDeleted: Bool) -> String {
        accountDeleted
            ? "\(other) deleted their Parley account: this conversation is gone from the server. Its history stays on this device."
            : "This conversation with \(other) was deleted from the server. Its history stays on this device."
    }

    /// Stores `notices` as local entries within `writer`'s transaction.
    static func store(_ notices: [ConversationBook.Notice], now: Int64, in writer: ClientDatabase.Writer) throws {
        _ = try MessageHistory.storeLocal(notices.map {
            MessageHistory.LocalEntry(conversationID: $0.conversationID, senderID: 0, kind: kind, text: $0.text)
        }, at: now, in: writer)
    }
}

extension Message {
    /// The `kind` of the local entry that says a group's members changed (`MembershipNotices`).
    public static let membershipKind = MembershipNotices.kind

    /// Whether this is an entry this device wrote to tell its person something (a key change, a group's members),
    /// shown as a notice rather than as something someone wrote.
    public var isNotice: Bool { kind == Message.keyChangeKind || kind == Message.membershipKind }
}
