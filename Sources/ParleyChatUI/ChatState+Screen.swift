import Foundation
import ParleyClient

extension ChatState {
    /// The screen for a `width` × `height` terminal; times are shown in `timeZone`.
    func screen(width: Int, height: Int, timeZone: TimeZone = .current) -> ChatScreen {
        var screen = ChatScreen(width: width, height: height, account: account)
        screen.link = link
        if locked {
            // Nothing decrypted while locked: no names, titles or messages, and the PIN shows as dots.
            screen.locked = true
            screen.title = "Locked"
            screen.input.insert(String(repeating: "•", count: input.text.count))
            screen.notice = notice
            return screen
        }
        screen.conversations = ordered.map { conversation in
            let peer = peer(of: conversation)
            return ChatScreen.ConversationRow(
                id: conversation.id, name: (conversation.isRequest == true ? "request: " : "") + name(of: conversation), unread: conversation.unread, favourite: conversation.favourite,
                online: peer.map { online.contains($0) }, shield: peer.flatMap { shields[$0] })
        }
        screen.selectedID = selected?.id
        if let conversation = selected {
            var title = name(of: conversation)
            if let peer = peer(of: conversation) {
                title += online.contains(peer) ? " · online" : " · offline"
            } else {
                title += " · \(conversation.members.count) \(conversation.members.count == 1 ? "member" : "members")"
            }
            if conversation.favourite { title += " · ★" }
            if conversation.isRequest == true { title += " · a message request: writing accepts it; 'parley requests' declines or blocks" }
            screen.title = title
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        screen.messages = messages.map { row(for: $0, calendar: calendar) }
        screen.scroll = scroll
        screen.input = input
        screen.notice = notice
        screen.showHelp = showHelp
        return screen
    }

    /// One message as the pane shows it.
    func row(for message: Message, calendar: Calendar) -> ChatScreen.MessageRow {
        let date = Date(timeIntervalSince1970: Double(message.timestamp) / 1000)
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let time = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        var quote: String?
        if let reply = message.replyTo {
            if let original = messages.first(where: { $0.id == reply }) ?? quoted[reply] {
                let text = original.deleted ? "(deleted)" : original.text
                quote = "#\(reply) \(name(of: original.senderID)): \(text)"
            } else {
                quote = "#\(reply)"
            }
        }
        if let event = Self.event(message, by: name(of: message.senderID)) {
            return ChatScreen.MessageRow(id: message.id, sender: "", time: time, text: event, quote: nil, reactions: [], event: true)
        }
        let reactions = message.reactions
            .sorted { (ParleyClient.reactions.firstIndex(of: $0.key) ?? 99, $0.key) < (ParleyClient.reactions.firstIndex(of: $1.key) ?? 99, $1.key) }
            .map { (emoji: $0.key, count: $0.value.count) }
        return ChatScreen.MessageRow(
            id: message.id, sender: name(of: message.senderID), time: time, text: message.text, quote: quote,
            reactions: reactions, pinned: message.pinned, deleted: message.deleted, undecryptable: message.undecryptable,
            tick: tick(for: message), attachment: Self.attachmentLabel(message))
    }

    /// What an event message says, in words; nil for what a person wrote.
    static func event(_ message: Message, by sender: String) -> String? {
        guard !message.deleted, !message.undecryptable else { return nil }
        return switch message.kind {
        case Message.keyChangeKind, Message.membershipKind: message.text
        case "avatar": "\(sender) has a new picture"
        case "group_avatar": "\(sender) set a new picture for the group"
        case "group_title": "\(sender) named the group “\(message.text)”"
        default: nil
        }
    }

    /// The file or image entry of a message: name, size and type (download with `parley download ID`);
    /// text messages have none.
    static func attachmentLabel(_ message: Message) -> String? {
        if let file = message.attachment {
            let size = ByteCountFormatter.string(fromByteCount: file.size, countStyle: .file)
            let dimensions = file.width.flatMap { w in file.height.map { "\(w)×\($0), " } } ?? ""
            return "\(file.name) (\(dimensions)\(size), \(file.mimeType))"
        }
        return switch message.kind {
        case "text", "group_title", "": nil
        case "image": "image"
        default: message.kind
        }
    }
}
