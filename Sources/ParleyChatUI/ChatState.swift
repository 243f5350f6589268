import ParleyClient

/// What the chat knows: conversations, the open one's messages, names, presence, read marks, the
/// input line. The controller feeds it client events and key presses; `screen()` turns it into a
/// `ChatScreen`. No I/O here, so the whole of it is testable.
struct ChatState: Sendable {
    /// Our e-mail.
    var account: String
    /// Our account id (to tell our own messages apart).
    var me: Int64?
    /// Conversations as the client lists them (most recent first).
    var conversations: [Conversation] = []
    /// Names of people we know, by account id.
    var names: [Int64: String] = [:]
    /// Contacts online now.
    var online: Set<Int64> = []
    /// Trust marks of contacts, by account id: empty until the SDK reports contact trust (issue 6).
    var shields: [Int64: String] = [:]
    /// The open conversation.
    var selectedID: Int64?
    /// The open conversation's newest messages, oldest first.
    var messages: [Message] = []
    /// Messages replied to that are older than the loaded window, for their quotes.
    var quoted: [Int64: Message] = [:]
    /// Read marks per conversation: account → the newest message id it read.
    var readUpTo: [Int64: [Int64: Int64]] = [:]
    /// The connection indicator.
    var link: ChatScreen.Link = .connecting
    /// What the user is typing.
    var input = InputLine()
    /// The one-line notice.
    var notice: String?
    /// Whether the help pane is shown.
    var showHelp = false
    /// Whether the vault is locked (idle timeout or /lock): nothing decrypted is shown, the input takes the PIN.
    var locked = false
    /// Lines scrolled up in the message pane.
    var scroll = 0
    /// How many messages the pane keeps loaded.
    static let window = 200

    /// Conversations in display order: favourites first, each group most recent first.
    var ordered: [Conversation] {
        conversations.filter(\.favourite) + conversations.filter { !$0.favourite }
    }

    /// The open conversation.
    var selected: Conversation? { conversations.first { $0.id == selectedID } }

    /// The other person of a direct conversation.
    func peer(of conversation: Conversation) -> Int64? {
        guard conversation.kind == "direct" else { return nil }
        return conversation.members.first { $0 != me } ?? conversation.members.first
    }

    /// How a conversation is called: the group's title, or the other person's name.
    func name(of conversation: Conversation) -> String {
        if conversation.kind == "group" { return conversation.title ?? "group \(conversation.id)" }
        guard let peer = peer(of: conversation) else { return "conversation \(conversation.id)" }
        return name(of: peer)
    }

    /// A person's name, or their account number until we learn it.
    func name(of account: Int64) -> String {
        account == me ? "me" : names[account] ?? "account \(account)"
    }

    /// Accounts whose names we do not know yet (members of our conversations and senders).
    var unknownAccounts: Set<Int64> {
        var accounts = Set(conversations.flatMap(\.members)).union(messages.map(\.senderID))
        accounts.subtract(names.keys)
        if let me { accounts.remove(me) }
        return accounts
    }

    /// The conversation `offset` places after the open one in display order (wrapping around).
    func neighbour(_ offset: Int) -> Int64? {
        let order = ordered
        guard !order.isEmpty else { return nil }
        guard let index = order.firstIndex(where: { $0.id == selectedID }) else { return order[0].id }
        return order[((index + offset) % order.count + order.count) % order.count].id
    }

    /// Takes in a new or changed message: shown if its conversation is open, counted unread if not.
    /// Returns whether it belongs to a conversation we did not know (the list needs a refresh).
    @discardableResult
    mutating func receive(_ message: Message, isNew: Bool) -> Bool {
        if message.conversationID == selectedID {
            if let index = messages.firstIndex(where: { $0.id == message.id }) {
                messages[index] = message
            } else if isNew {
                messages.append(message)
                messages.sort { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
                if messages.count > Self.window { messages.removeFirst(messages.count - Self.window) }
            }
        }
        if quoted[message.id] != nil { quoted[message.id] = message }
        guard let index = conversations.firstIndex(where: { $0.id == message.conversationID }) else { return isNew }
        if isNew {
            conversations[index].lastMessageAt = max(conversations[index].lastMessageAt ?? 0, message.timestamp)
            if message.conversationID != selectedID && message.senderID != me { conversations[index].unread += 1 }
            // Most recent first, as the client lists them.
            conversations.sort { ($0.lastMessageAt ?? 0, $0.id) > ($1.lastMessageAt ?? 0, $1.id) }
        }
        return false
    }

    /// A group's new title (its creator's, or passed on and checked), shown at once.
    mutating func rename(_ conversationID: Int64, to title: String) {
        guard let index = conversations.firstIndex(where: { $0.id == conversationID }) else { return }
        conversations[index].title = title
    }

    /// Records a `messages_read` mark.
    mutating func markRead(conversation: Int64, account: Int64, upTo: Int64) {
        readUpTo[conversation, default: [:]][account] = max(readUpTo[conversation]?[account] ?? 0, upTo)
    }

    /// How far one of our messages got: read by someone, delivered to someone, or stored. A read mark is a
    /// server time: it covers the messages sent at or before it, of those its reader has — not one withheld from
    /// them while they blocked us, whose mark reaches us once the block is lifted.
    func tick(for message: Message) -> ChatScreen.Tick? {
        guard let me, let progress = message.progress(me: me) else { return nil }
        let marks = readUpTo[message.conversationID] ?? [:]
        if marks.contains(where: { $0.key != me && $0.value >= message.timestamp && message.deliveredTo.contains($0.key) }) { return .read }
        return progress
    }
}
