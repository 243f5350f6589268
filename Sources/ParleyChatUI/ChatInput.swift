import Foundation

/// What a line typed in `parley chat` asks for.
enum ChatInput: Equatable, Sendable {
    /// Nothing (an empty line).
    case none
    /// Send this text to the open conversation.
    case send(String)
    /// `/reply N text`: answer message N.
    case reply(Int64, String)
    /// `/react N 👍`: toggle a reaction on message N.
    case react(Int64, String)
    /// `/pin N`, `/unpin N`.
    case pin(Int64, Bool)
    /// `/delete N`: delete one of our messages for everyone.
    case delete(Int64)
    /// `/open EMAIL`: start (or open) the direct conversation with someone.
    case open(String)
    /// `/fav`: toggle the open conversation's favourite mark.
    case favourite
    /// `/members`: who is in the open group.
    case members
    /// `/accept N`: join group N, to which this account is invited.
    case acceptInvitation(Int64)
    /// `/decline N`: decline the invitation to group N.
    case declineInvitation(Int64)
    /// `/help`: show the commands.
    case help
    /// `/lock`: drop the vault key now; the PIN unlocks again.
    case lock
    /// `/quit`: leave.
    case quit
    /// A command that is not right, with what to type instead.
    case invalid(String)

    /// The commands, for the help pane.
    static let usage: [String] = [
        "text            send to the open conversation (start with // to send a leading /)",
        "/reply N text   reply to message #N",
        "/react N 👍      toggle a reaction (👍 ❤️ 😂 😮 😢 👎) on message #N",
        "/pin N, /unpin N  pin or unpin message #N for everyone",
        "/delete N       delete your message #N for everyone",
        "/open EMAIL     open the conversation with someone",
        "/fav            mark or unmark the open conversation as favourite",
        "/members        who is in the open group",
        "/accept N, /decline N  join or decline group N you are invited to",
        "/lock           lock now: the screen clears until you type your vault PIN",
        "/help           show or hide this help;  /quit (or Ctrl-C) to leave",
    ]

    /// Reads one typed line.
    static func parse(_ line: String) -> ChatInput {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .none }
        if trimmed.hasPrefix("//") { return .send(String(trimmed.dropFirst())) }
        guard trimmed.hasPrefix("/") else { return .send(trimmed) }
        let parts = trimmed.dropFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        let command = parts.first?.lowercased() ?? ""
        let rest = Array(parts.dropFirst())
        switch command {
        case "quit", "q", "exit": return .quit
        case "help", "h", "?": return .help
        case "lock": return .lock
        case "fav", "favourite", "favorite": return .favourite
        case "members", "who": return .members
        case "reply", "r":
            guard let id = messageID(rest.first) else { return .invalid("usage: /reply N text (N is the #number of a message)") }
            guard rest.count == 2 else { return .invalid("usage: /reply N text — the reply needs some text") }
            return .reply(id, rest[1])
        case "react":
            guard let id = messageID(rest.first), rest.count == 2 else { return .invalid("usage: /react N 👍 (one of 👍 ❤️ 😂 😮 😢 👎)") }
            return .react(id, rest[1].trimmingCharacters(in: .whitespaces))
        case "pin", "unpin":
            guard let id = messageID(rest.first), rest.count == 1 else { return .invalid("usage: /\(command) N") }
            return .pin(id, command == "pin")
        case "delete", "del":
            guard let id = messageID(rest.first), rest.count == 1 else { return .invalid("usage: /delete N") }
            return .delete(id)
        case "open":
            guard rest.count == 1, rest[0].contains("@") else { return .invalid("usage: /open EMAIL") }
            return .open(rest[0])
        case "accept", "join", "decline":
            guard let id = messageID(rest.first), rest.count == 1 else { return .invalid("usage: /\(command) N (N is the group's number)") }
            return command == "decline" ? .declineInvitation(id) : .acceptInvitation(id)
        default:
            return .invalid("unknown command /\(DisplayWidth.truncated(DisplayWidth.sanitized(command), to: 20)); type /help for the list")
        }
    }

    /// A message number as shown (`12` or `#12`).
    private static func messageID(_ text: String?) -> Int64? {
        guard let text else { return nil }
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard let id = Int64(digits), id > 0 else { return nil }
        return id
    }
}
