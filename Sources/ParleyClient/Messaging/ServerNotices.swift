import Foundation
import Logging
import ParleyWire

/// Acts on the server's notifications, in the order they arrive (docs/API.md §6): they are hints, the store stays
/// the truth. What they say of stored messages (reactions, pins, deletions, deliveries) and of who is online is
/// applied here; what needs the sessions (a pushed message, a group that shrank, someone's new keys) goes to the
/// account's `SessionOwner`. Subscribers hear every event after it was acted on.
struct ServerNotices: Sendable {
    typealias Dependencies = HasDatabase & HasEvents & HasAccount & HasClock & HasServer & HasRandom & Sendable
    let dependencies: any Dependencies
    /// Who is online, as the server last said.
    let presence: PresenceBook
    private let logger = Logger(label: "parley.client")

    init(dependencies: any Dependencies, presence: PresenceBook) {
        self.dependencies = dependencies
        self.presence = presence
    }

    private var history: MessageHistory { MessageHistory(dependencies: dependencies) }
    private var account: any AccountCalling { dependencies.account }

    /// Acts on one notification, then tells subscribers. An event this version does not know is ignored; a known
    /// one that is malformed too (and logged, by name only).
    func handle(_ name: String, _ fields: [String: JSONValue]) async {
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
            try await act(on: event)
        } catch {
            logger.debug("notification handling failed", metadata: ["event": "\(name)"])
        }
        dependencies.events.yield(.server(event))
    }

    private func act(on event: ServerEvent) async throws(ClientError) {
        switch event {
        case .newMessage(let news):
            // A pushed envelope is taken in directly; a plain hint (an old server, a long envelope, a busy
            // connection, another node) means fetching, and so does a push that cannot be taken in.
            if news.ciphertext != nil, (try? await account.takePushed(news)) != nil { return }
            try await account.syncNow()
        case .messageReacted(let reaction):
            try update(reaction.messageID) { $0.setReaction(reaction.emoji, from: reaction.accountID, present: reaction.present) }
        case .messagePinned(let pin):
            try update(pin.messageID) { $0.pinned = true }
        case .messageUnpinned(let pin):
            try update(pin.messageID) { $0.pinned = false }
        case .messageDeleted(let deleted):
            try update(deleted.messageID) { $0.markDeleted() }
        case .messageDelivered(let delivery):
            // A re-send's delivery ticks the message it stands for (§2.1).
            let target = try SentLog(dependencies: dependencies).originalOfResend(delivery.messageID) ?? delivery.messageID
            try update(target) { if !$0.deliveredTo.contains(delivery.accountID) { $0.deliveredTo.append(delivery.accountID) } }
        case .memberRemoved(let removal):
            if removal.reason == "left", removal.accountID == (try? await account.confirmedAccountID()) {
                // This account left (this device's `groups.leave`, whose answer may come after this, or another
                // device's): off the list with no notice, as `leave` does — a refresh must not find it gone and tell
                // the person who just left that they are no longer a member.
                try ConversationBook(dependencies: dependencies).unlist(removal.conversationID)
                return
            }
            try await account.groupShrank(removal.conversationID)
            // The creator may have left, handing the group to this account: its title is signed again (§8.1).
            try await GroupTitles(dependencies: dependencies).signAgain(takenOverOnly: true)
        case .memberAdded(let member):
            // The creator sends the title to whoever just joined (and only to them).
            try await GroupTitles(dependencies: dependencies).memberJoined(member.conversationID)
        case .conversationCreated, .conversationDeleted, .groupInvitation, .messageRequest, .requestAccepted, .accountDeleted:
            try await ConversationBook(dependencies: dependencies).refresh()
        case .keysUpdated(let changed):
            // A hint (the server could send it at will), so it drops nothing: fresh sessions with the contact's
            // current bundles become current and the old ones are archived, so what is in flight on them still
            // decrypts. The new key is learnt now, so the warning appears when the change happens (§9).
            guard changed.accountID != (try? await account.confirmedAccountID()) else { return }
            try await account.renewSessions(with: changed.accountID)
        case .profileUpdated(let changed):
            // A contact's new name replaces the one learnt before (the profile says what this account may see).
            guard changed.accountID != (try? await account.confirmedAccountID()) else { return }
            try await ContactBook(dependencies: dependencies).learnProfile(changed.accountID)
        default:
            return
        }
    }

    /// Applies `change` to a stored message and tells subscribers.
    private func update(_ id: Int64, _ change: (inout Message) -> Void) throws(ClientError) {
        if let message = try history.update(id, change) { dependencies.events.yield(.messageUpdated(message)) }
    }
}
