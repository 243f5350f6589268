import Foundation
import ParleyProtocol
import ParleyWire

extension ParleyClient {
    /// Acts on one server notification (they are hints: the store stays the truth).
    func handleNotification(_ event: String, _ fields: [String: JSONValue]) async {
        let message = fields.optionalInt("message_id")
        // Presence first, so a subscriber that reads `onlineContacts` on this event sees it applied.
        presence.apply(event, fields)
        do {
            switch event {
            case "new_message":
                // A pushed envelope is taken in directly; a plain hint (an old server, a long envelope, a busy
                // connection, another node) means fetching.
                // A push that cannot be taken in (malformed, or the store refused) is fetched like any other.
                if fields["ciphertext"] != nil, (try? await receivePushed(fields)) != nil { break }
                try await sync()
            case "message_reacted":
                if let message, let account = fields.optionalInt("account_id"), let emoji = fields.optionalString("emoji") {
                    try updateMessage(message) { $0.setReaction(emoji, from: account, present: fields.bool("present")) }
                }
            case "message_pinned", "message_unpinned":
                if let message { try updateMessage(message) { $0.pinned = event == "message_pinned" } }
            case "message_deleted":
                if let message { try updateMessage(message) { $0.markDeleted() } }
            case "message_delivered":
                if let message, let account = fields.optionalInt("account_id") {
                    // A re-send's delivery ticks the message it stands for (§2.1).
                    let target = try originalOfResend(message) ?? message
                    try updateMessage(target) { if !$0.deliveredTo.contains(account) { $0.deliveredTo.append(account) } }
                }
            case "member_removed":
                if let conversation = fields.optionalInt("conversation_id") {
                    try rekeyGroup(conversation)
                    try await refreshConversations()
                }
            case "member_added":
                if let conversation = fields.optionalInt("conversation_id") {
                    // The creator sends the title to whoever just joined (and only to them).
                    try await shareTitle(of: try await refreshConversation(conversation))
                }
            case "conversation_created", "conversation_deleted", "group_invitation", "message_request", "request_accepted", "account_deleted":
                try await refreshConversations()
            case "keys_updated":
                // A hint (the server could send it at will), so it drops nothing: fresh sessions with the contact's
                // current bundles become current and the old ones are archived, so what is in flight on them still
                // decrypts. The new key is learnt now, so the warning appears when the change happens (§9).
                if let account = fields.optionalInt("account_id"), account != keys.accountID {
                    let answer = try await call(API.GetKeyBundle.self, .init(accountID: account))
                    let devices = answer.devices.map(\.deviceID)
                    try startSessions(from: answer, account: account, renewing: Set(devices))
                }
            default:
                break
            }
        } catch {
            logger.debug("notification handling failed", metadata: ["event": "\(event)"])
        }
        broadcaster.yield(.notification(event: event, fields: fields))
    }
}
