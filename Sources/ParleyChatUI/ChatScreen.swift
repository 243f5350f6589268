import ParleyClient

/// Everything the chat screen shows, as plain values: the renderer turns it into lines without a terminal.
struct ChatScreen: Equatable, Sendable {
    /// Whether the client is talking to its server (the indicator top right).
    enum Link: Equatable, Sendable {
        case connecting
        case connected
        case reconnecting(attempt: Int)
        case offline
    }

    /// How far one of our messages got: stored by the server (`sent`), confirmed by a recipient's device, read.
    typealias Tick = Message.Progress

    /// One line of the conversation list.
    struct ConversationRow: Equatable, Sendable {
        /// The conversation id.
        var id: Int64
        /// A person's name or e-mail, or the group title.
        var name: String
        /// Unread messages.
        var unread: Int
        /// Marked favourite (listed first).
        var favourite: Bool
        /// Online (direct conversations); nil when unknown or a group.
        var online: Bool?
        /// The contact's trust mark (one cell), nil until the SDK reports trust.
        var shield: String?
    }

    /// One message of the open conversation.
    struct MessageRow: Equatable, Sendable {
        /// The server's message id, shown as #N for /reply, /react, /pin, /delete.
        var id: Int64
        /// Who sent it ("me" for our own).
        var sender: String
        /// HH:MM.
        var time: String
        /// The text (already cleared when deleted).
        var text: String
        /// The first line of the message it replies to, with its sender.
        var quote: String?
        /// Emoji with their counts, in a stable order.
        var reactions: [(emoji: String, count: Int)]
        /// Pinned in the conversation.
        var pinned: Bool = false
        /// Deleted by its sender.
        var deleted: Bool = false
        /// This device could not decrypt it.
        var undecryptable: Bool = false
        /// For our own messages: how far it got.
        var tick: Tick?
        /// A file or image entry: its label (name, type, size).
        var attachment: String?
        /// An event rather than something a person wrote (a key change, a new picture, a group named): shown as
        /// one line without a sender, id or ticks.
        var event: Bool = false

        static func == (lhs: MessageRow, rhs: MessageRow) -> Bool {
            lhs.id == rhs.id && lhs.sender == rhs.sender && lhs.time == rhs.time && lhs.text == rhs.text && lhs.quote == rhs.quote
                && lhs.reactions.map(\.emoji) == rhs.reactions.map(\.emoji) && lhs.reactions.map(\.count) == rhs.reactions.map(\.count)
                && lhs.pinned == rhs.pinned && lhs.deleted == rhs.deleted && lhs.undecryptable == rhs.undecryptable
                && lhs.tick == rhs.tick && lhs.attachment == rhs.attachment && lhs.event == rhs.event
        }
    }

    /// Terminal columns.
    var width: Int
    /// Terminal rows.
    var height: Int
    /// The signed-in account.
    var account: String
    /// The connection indicator.
    var link: Link = .connecting
    /// The conversation list, in display order.
    var conversations: [ConversationRow] = []
    /// The open conversation's id.
    var selectedID: Int64?
    /// The message pane's title (the open conversation's name and presence).
    var title: String = ""
    /// The open conversation's messages, oldest first.
    var messages: [MessageRow] = []
    /// Lines scrolled up from the newest message.
    var scroll: Int = 0
    /// The input line.
    var input = InputLine()
    /// A one-line notice (an error, or what just happened).
    var notice: String?
    /// Whether the help pane replaces the messages.
    var showHelp: Bool = false
    /// Whether the vault is locked: the pane asks for the PIN instead of showing messages.
    var locked: Bool = false

    /// The key bindings, for the help bar.
    static let helpBar = "Tab/Shift-Tab or Ctrl-↑↓ switch · ↑↓ history · PgUp/PgDn scroll · /help · Ctrl-C quit"

    /// The key bindings in full, for the help pane.
    static let keyHelp: [String] = [
        "Enter           send the line (or run the /command)",
        "Tab, Shift-Tab  next / previous conversation (also Ctrl-↑ Ctrl-↓, Alt-↑ Alt-↓)",
        "↑ ↓             walk the input history",
        "← → Home End    move in the line;  Ctrl-A Ctrl-E start/end, Ctrl-U clear, Ctrl-W delete word",
        "PgUp PgDn       scroll the messages",
        "Ctrl-L          redraw the screen",
        "Esc             close this help",
    ]
}

/// The screen as text: one string per terminal row, and where the cursor goes.
struct RenderedScreen: Equatable, Sendable {
    /// Exactly `height` lines, each at most `width` cells.
    var lines: [String]
    /// The cursor's row (0-based).
    var cursorRow: Int
    /// The cursor's column in cells (0-based).
    var cursorColumn: Int
    /// The scroll actually used (clamped to what there is to scroll).
    var scroll: Int
}
