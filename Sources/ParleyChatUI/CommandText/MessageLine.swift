import Foundation
import ParleyClient
import ParleyTerminal

/// One message as a line of text.
public enum MessageLine {
    /// `[CONVERSATION#ID TIME] WHO: TEXT`, with replies, forwards, files, pins and reactions shown.
    public static func format(_ message: Message, client: ParleyClient) async -> String {
        let me = await client.accountID
        let who = message.senderID == me ? "me" : await PersonName.of(message.senderID, client: client)
        // What to type in a command about them: their e-mail (a display name is not an address).
        let address = ((try? client.contacts.contact(message.senderID)) ?? nil)?.email ?? "\(message.senderID)"
        let time = Date(timeIntervalSince1970: Double(message.timestamp) / 1000).formatted(date: .omitted, time: .shortened)
        var text = message.deleted ? "(deleted)"
            : message.heldForKeyChange == true ? "(held: their identity key changed — run 'parley verify \(address)', then 'parley verify accept \(address)')"
            : message.undecryptable ? "(could not decrypt — asked the sending device to send it again)" : TerminalText.indentedLines(message.text)
        // A key-change warning or a group's changed members is the client's own entry, not something anyone wrote; the
        // names in it came from others, so it is shown inert like any remote text.
        if message.isNotice { return "[\(message.conversationID)#local \(time)] \(TerminalText.indentedLines(message.text))" }
        if let reply = message.replyTo { text = "↪ \(reply) " + text }
        if let source = message.forwardedFrom {
            let original = source.senderID == me ? "me" : await PersonName.of(source.senderID, client: client)
            // Who wrote the original is the forwarder's word: said as such unless this device has the original.
            let known = source.senderID == message.senderID || ((try? client.history.holds(senderID: source.senderID, timestamp: source.timestamp)) ?? false)
            text = (known ? "[forwarded from \(original)] " : "[forwarded; \(who) says it is from \(original)] ") + text
        }
        if let attachment = message.attachment, !message.deleted { text = FileLabel.line(attachment, messageID: message.id, caption: text) }
        if message.kind == "avatar" || message.kind == "group_avatar" { text = message.kind == "avatar" ? "(new picture)" : "(new group picture)" }
        if message.kind == "group_title", !message.deleted, !message.undecryptable {
            return "[\(message.conversationID)#\(message.id) \(time)] \(who) named the group “\(TerminalText.visible(message.text, singleLine: true))”"
        }
        let reactions = message.reactions.sorted { $0.key < $1.key }.map { "\($0.key)\($0.value.count)" }.joined(separator: " ")
        let progress = me.flatMap { message.progress(me: $0) }.map { "  (\(words(for: $0, message)))" } ?? ""
        return "[\(message.conversationID)#\(message.id) \(time)] \(who): \(text)\(message.pinned ? " 📌" : "")\(reactions.isEmpty ? "" : "  \(reactions)")\(progress)"
    }

    /// How far one's own message got, in words: "sent", "delivered", "read", or with counts when several others
    /// (a group's members) have it: "delivered to 3", "read by 2".
    static func words(for progress: Message.Progress, _ message: Message) -> String {
        let others = { (accounts: [Int64]) in accounts.filter { $0 != message.senderID }.count }
        switch progress {
        case .sent: return "sent"
        case .delivered:
            let count = others(message.deliveredTo)
            return count > 1 ? "delivered to \(count)" : "delivered"
        case .read:
            let count = others(message.readBy ?? [])
            return count > 1 ? "read by \(count)" : "read"
        }
    }
}

/// How a file or image message reads in `parley read`.
public enum FileLabel {
    /// `[file] name (size, type) — parley download ID -o PATH`, or the image form with its thumbnail.
    public static func line(_ attachment: Attachment, messageID: Int64, caption: String) -> String {
        // The name comes from the sender: shown inert, with what could hide in it (`TerminalText.name`).
        let name = TerminalText.name(attachment.name)
        let how = "— parley download \(messageID) -o PATH"
        let head: String
        if attachment.isImage {
            let dimensions = attachment.width.flatMap { w in attachment.height.map { "\(w)×\($0), " } } ?? ""
            let thumbnail = attachment.thumbnail.map { " (thumbnail \($0.count) bytes)" } ?? ""
            head = "[image \(name)] (\(dimensions)\(size(attachment.size)), \(attachment.mimeType))\(thumbnail)"
        } else {
            head = "[file] \(name) (\(size(attachment.size)), \(attachment.mimeType))"
        }
        return caption.isEmpty ? "\(head) \(how)" : "\(caption) \(head) \(how)"
    }

    /// A byte count for people: 512 B, 12.5 KiB, 3.2 MiB, 1.5 GiB, 8.0 PiB (a size a sender claims can be anything).
    public static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KiB", "MiB", "GiB", "TiB"] {
            if value < 1024 { return String(format: "%.1f \(unit)", value) }
            value /= 1024
        }
        return String(format: "%.1f PiB", value)
    }
}
