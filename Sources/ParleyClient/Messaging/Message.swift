import ParleyClientFormats

/// A message as this device shows it: server metadata plus the decrypted content and its state.
public struct Message: Codable, Sendable, Equatable, Identifiable {
    /// The server's message id.
    public let id: Int64
    /// The conversation it belongs to.
    public let conversationID: Int64
    /// The sending account.
    public let senderID: Int64
    /// The sending device.
    public let senderDevice: UInt32
    /// Server time, ms since the epoch.
    public let timestamp: Int64
    /// The text, empty when it could not be decrypted or was deleted.
    public var text: String
    /// `text`, `file`, … (server-visible metadata).
    public var kind: String
    /// The message this one answers.
    public var replyTo: Int64?
    /// Where a forwarded message came from.
    public var forwardedFrom: ForwardSource?
    /// Emoji → the accounts that reacted with it.
    public var reactions: [String: [Int64]]
    /// Whether it is pinned in its conversation.
    public var pinned: Bool
    /// Whether its sender deleted it (its text is gone).
    public var deleted: Bool
    /// Accounts whose devices confirmed delivery (own messages).
    public var deliveredTo: [Int64]
    /// Accounts whose read mark reached it (own messages), as last learnt from the server (nil: none learnt).
    public var readBy: [Int64]? = nil
    /// Whether this device could not decrypt it (it asked the sending device to send it again, §2.1).
    public var undecryptable: Bool
    /// True while it waits for the user to accept its sender's changed identity key (then it is decrypted).
    public var heldForKeyChange: Bool? = nil
    /// The file or image it carries (`parley download`), if any.
    public var attachment: Attachment? = nil

    /// Kinds of stored messages people do not read: a location key that was stored, a retry request, a
    /// re-send (whose content, if any, went into the message it stands for) and a group title another member passed on.
    static let hiddenKinds: Set<String> = [LocationKeyContent.type, RetryRequest.kind, RetryRequest.resendKind, SignedTitle.relayKind]

    /// A control message people do not read.
    public var isHiddenControl: Bool { Self.hiddenKinds.contains(kind) }

    /// How far one of `me`'s own messages got, from what this device has learnt (nil for others' messages and
    /// deleted ones): read by someone else, delivered to someone else, or only stored by the server.
    public func progress(me: Int64) -> Progress? {
        guard senderID == me, !deleted, !isNotice else { return nil }
        if (readBy ?? []).contains(where: { $0 != me }) { return .read }
        return deliveredTo.contains(where: { $0 != me }) ? .delivered : .sent
    }

    /// How far a message one sent got.
    public enum Progress: String, Sendable {
        case sent, delivered, read
    }

    /// Whether `account` reacted with `emoji`.
    public func hasReaction(_ emoji: String, from account: Int64) -> Bool {
        reactions[emoji]?.contains(account) ?? false
    }
}

/// A conversation as this device knows it.
public struct Conversation: Codable, Sendable, Equatable, Identifiable {
    /// The server counts unread messages up to this many (docs/API.md §5).
    public static let unreadCountLimit = 1_000

    /// The server's conversation id.
    public let id: Int64
    /// `direct` or `group`.
    public let kind: String
    /// Active member account ids (self included).
    public var members: [Int64]
    /// The creator: who renames a group, removes its members and deletes it.
    public var creatorID: Int64
    /// The group's earlier creators this device saw hand it on by leaving (docs/API.md §5), oldest first. A title one
    /// of them sent arriving after they left was sent while they were the creator, and counts as the creator's word.
    public var formerCreators: [Int64]?
    /// The group title (end-to-end encrypted; nil for direct conversations).
    public var title: String?
    /// Unread messages (the server's count, which stops at `Conversation.unreadCountLimit`: that many means more).
    public var unread: Int
    /// Whether the user marked it favourite (local only).
    public var favourite: Bool
    /// Last activity, ms.
    public var lastMessageAt: Int64?
    /// True while it is a message request you have not answered: someone who is not a contact started it
    /// (docs/CLIENT.md §12). Writing in it, or `requests.accept`, accepts it.
    public var isRequest: Bool?

    /// A conversation as this device would know it (an app's tests make their own).
    public init(id: Int64, kind: String, members: [Int64], creatorID: Int64, title: String? = nil, unread: Int = 0,
                favourite: Bool = false, lastMessageAt: Int64? = nil, isRequest: Bool? = nil) {
        self.id = id
        self.kind = kind
        self.members = members
        self.creatorID = creatorID
        self.title = title
        self.unread = unread
        self.favourite = favourite
        self.lastMessageAt = lastMessageAt
        self.isRequest = isRequest
    }

    /// Whether a message from `sender` was sent while they held the group's creator rights: they held them once and
    /// are not a member now (rights pass only when their holder leaves, and a departed account sends nothing more).
    func sentByFormerCreator(_ sender: Int64) -> Bool {
        formerCreators?.contains(sender) == true && !members.contains(sender)
    }
}

/// Someone this device has talked to.
public struct Contact: Codable, Sendable, Equatable {
    /// The account id.
    public let accountID: Int64
    /// The e-mail, when known.
    public var email: String?
    /// The display name, when known.
    public var displayName: String?
    /// Another account this device learned under the same e-mail since: this one was deleted or replaced, and the
    /// address now belongs to that account (whose key is checked as a changed key, `Trust.noticeReplacedAccounts`).
    public var replacedBy: Int64?
    /// The server said the account no longer exists (their direct conversation went away and their profile is gone).
    public var deleted: Bool?

    /// Someone this device knows.
    public init(accountID: Int64, email: String?, displayName: String?, replacedBy: Int64? = nil) {
        self.accountID = accountID
        self.email = email
        self.displayName = displayName
        self.replacedBy = replacedBy
    }
}
