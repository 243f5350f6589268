import Foundation
import ParleyProtocol
import ParleyWire

extension ParleyClient {
    /// Acts on one server notification (they are hints: the store stays the truth), then tells subscribers.
    /// An event this version does not know is ignored; a known one that is malformed too (and logged).
    func handleNotification(_ name: String, _ fields: [String: JSONValue]) async {
        let event: ServerEvent
        do {
            guard let known = try ServerEvent(name: name, fields: fields) else { return }
            event = known
        } catch {
            logger.debug("malformed notification ignored", metadata: ["event": "\(name.prefix(64))", "error": "\(error.message)"])
            return
        }
        // Presence first, so a subscriber that reads `onlineContacts` on this event sees it applied.
        presence.apply(event)
        do {
            switch event {
            case .newMessage(let news):
                // A pushed envelope is taken in directly; a plain hint (an old server, a long envelope, a busy
                // connection, another node) means fetching.
                // A push that cannot be taken in (malformed, or the store refused) is fetched like any other.
                if news.ciphertext != nil, (try? await receivePushed(news)) != nil { break }
                try await sync()
            case .messageReacted(let reaction):
                try updateMessage(reaction.messageID) { $0.setReaction(reaction.emoji, from: reaction.accountID, present: reaction.present) }
            case .messagePinned(let pin):
                try updateMessage(pin.messageID) { $0.pinned = true }
            case .messageUnpinned(let pin):
                try updateMessage(pin.messageID) { $0.pinned = false }
            case .messageDeleted(let deleted):
                try updateMessage(deleted.messageID) { $0.markDeleted() }
            case .messageDelivered(let delivery):
                // A re-send's delivery ticks the message it stands for (§2.1).
                let target = try sentLog.originalOfResend(delivery.messageID) ?? delivery.messageID
                try updateMessage(target) { if !$0.deliveredTo.contains(delivery.accountID) { $0.deliveredTo.append(delivery.accountID) } }
            case .memberRemoved(let removal):
                try rekeyGroup(removal.conversationID)
                try await refreshConversations()
            case .memberAdded(let member):
                // The creator sends the title to whoever just joined (and only to them).
                try await shareTitle(of: try await refreshConversation(member.conversationID))
            case .conversationCreated, .conversationDeleted, .groupInvitation, .messageRequest, .requestAccepted, .accountDeleted:
                try await refreshConversations()
            case .keysUpdated(let changed):
                // A hint (the server could send it at will), so it drops nothing: fresh sessions with the contact's
                // current bundles become current and the old ones are archived, so what is in flight on them still
                // decrypts. The new key is learnt now, so the warning appears when the change happens (§9).
                let account = changed.accountID
                if account != keys.accountID {
                    let answer = try await call(API.GetKeyBundle.self, .init(accountID: account))
                    let devices = answer.devices.map(\.deviceID)
                    try startSessions(from: answer, account: account, renewing: Set(devices))
                }
            default:
                break
            }
        } catch {
            logger.debug("notification handling failed", metadata: ["event": "\(name)"])
        }
        broadcaster.yield(.server(event))
    }
}
