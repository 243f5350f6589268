import Foundation
import Logging
import ParleyWire
import ParleyClientFormats

/// Sending (docs/CLIENT.md §2): a message goes into the outbox first, then out at once when connected, or later
/// when the outbox is flushed (after a reconnect, once a contact's new key is accepted). Sealing it for each device
/// is the account's (`AccountCalling.deliver`): this holds no session.
public struct Outgoing: Sendable {
    typealias Dependencies = HasServer & HasAccount & HasDatabase & HasClock & HasRandom & HasEvents & Sendable
    let dependencies: any Dependencies
    private static let logger = Logger(label: "parley.client")

    private var account: any AccountCalling { dependencies.account }
    private var outbox: Outbox { Outbox(dependencies: dependencies) }

    /// Sends `text` to a conversation. Without a connection the message waits in the outbox.
    public func send(_ text: String, to conversationID: Int64, replyTo: Int64? = nil) async throws(ClientError) -> SendOutcome {
        try Self.refuseBlank(text)
        let content = MessageContent(id: dependencies.random.clientMessageID(), type: "text", text: text, replyTo: replyTo)
        return try await enqueue(OutboxEntry(conversationID: conversationID, content: content, kind: "text",
                                             forwardOf: nil, created: dependencies.clock.now()))
    }

    /// Refuses text of only spaces, line breaks or invisible characters: it would reach the other side as an
    /// empty-looking message. Checked before anything is started for it (a conversation, a request).
    public static func refuseBlank(_ text: String) throws(ClientError) {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0.properties.generalCategory != .format }) else {
            throw .invalidInput("the message is empty")
        }
    }

    /// Forwards a message to another conversation; the copy names its original sender and time.
    public func forward(_ messageID: Int64, to conversationID: Int64) async throws(ClientError) -> SendOutcome {
        guard let source = try MessageHistory(dependencies: dependencies).message(messageID), !source.deleted, !source.undecryptable,
              !source.isLocalEntry else {
            throw .invalidInput("message \(messageID) is not in this device's history")
        }
        // The server lets only the original conversation's members download a file.
        guard source.attachment == nil else { throw .invalidInput("a file cannot be forwarded; download it and send it again") }
        let content = MessageContent(id: dependencies.random.clientMessageID(), type: "text", text: source.text,
                                     forward: source.forwardedFrom ?? ForwardSource(senderID: source.senderID, timestamp: source.timestamp))
        return try await enqueue(OutboxEntry(conversationID: conversationID, content: content, kind: source.kind,
                                             forwardOf: messageID, created: dependencies.clock.now()))
    }

    /// Messages waiting to be sent.
    public func pendingCount() throws(ClientError) -> Int {
        try outbox.count()
    }

    /// Keeps `entry` in the outbox and sends it now if connected: sent, or queued for the next flush. A refusal
    /// for good (not a member, too large…) takes it out again and is thrown.
    func enqueue(_ entry: OutboxEntry) async throws(ClientError) -> SendOutcome {
        let id = entry.content.id
        if let conversation = try ConversationBook(dependencies: dependencies).stored(entry.conversationID) {
            try Trust(dependencies: dependencies).ensureSendable(conversation, me: try? await account.confirmedAccountID())
        }
        try outbox.add(entry)
        guard await dependencies.server.isConnected else { return .queued(clientMessageID: id) }
        do {
            return .sent(try await account.deliver(entry))
        } catch .notConnected, .disconnected, .timeout {
            return .queued(clientMessageID: id)
        } catch .server(let refusal) where Self.isPause(refusal) {
            return .queued(clientMessageID: id)
        } catch {
            try? outbox.remove(id)
            throw error
        }
    }

    /// Sends everything in the outbox, oldest first; stops at the first connection problem.
    func flush() async throws(ClientError) {
        for entry in try outbox.pending() {
            do {
                // Whoever shows the conversation (the chat's own pane) sees the queued message go out.
                dependencies.events.yield(.message(try await account.deliver(entry)))
            } catch .notConnected, .disconnected, .timeout {
                return
            } catch .server(let refusal) where Self.isPause(refusal) {
                return   // kept for the next flush
            } catch .server(let refusal) where refusal.code == .quotaExceeded {
                // The messages this account sent still wait for their recipients (docs/API.md §6): room comes back as
                // they fetch them. Nobody is here to send it again, so it waits for the next flush, after a reconnect.
                return
            } catch .identityKeyChanged {
                continue   // kept: it goes out once the user accepts the contact's new key
            } catch {
                Self.logger.warning("dropping an outbox message the server refused", metadata: ["error": "\(error)"])
                try outbox.remove(entry.content.id)
            }
        }
    }

    /// Not a verdict on the message: a connection between logins, a pause, a database hiccup, a server fault.
    static func isPause(_ refusal: WireError) -> Bool {
        [.unauthenticated, .rateLimited, .unavailable, .internal].contains(refusal.code)
    }
}
