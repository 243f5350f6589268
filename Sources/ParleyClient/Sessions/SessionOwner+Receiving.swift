import Foundation
import GRDB
import ParleyClientFormats
import ParleyCrypto
import ParleyProtocol
import ParleyWire

extension SessionOwner {
    /// Fetches everything new from the server, decrypts it, stores it — each message with its ratchet step and the
    /// sync cursor in one transaction — and then confirms delivery; returns the messages that arrived.
    @discardableResult
    func sync() async throws(ClientError) -> [Message] {
        if syncState.running {
            // One sync at a time; this caller waits for the running one, which goes round once more
            // to pick up whatever made this caller ask.
            syncState.again = true
            await withCheckedContinuation { syncState.waiters.append($0) }
            return []
        }
        syncState.running = true
        defer {
            syncState.running = false
            for waiter in syncState.waiters { waiter.resume() }
            syncState.waiters.removeAll()
        }
        var arrived: [Message] = []
        repeat {
            syncState.again = false
            var more = true
            while more {
                let after = try cursor()
                let page = try await call(API.GetMessages.self, .init(afterTimestamp: after, limit: 200))
                var confirm: [Int64] = []
                for item in page.messages {
                    if let received = try receive(item) { announce(received, into: &arrived) }
                    confirm.append(item.messageID)
                }
                if !confirm.isEmpty {
                    _ = try await call(API.ConfirmDelivery.self, .init(messageIDs: confirm))
                }
                // A page must move the cursor (the server lists only what is newer): one that does not — a server
                // serving the same page again, or older messages — would hold this loop forever.
                let moved = try cursor() > after
                if page.hasMore, !page.messages.isEmpty, !moved {
                    logger.warning("the server's next page of messages did not move past the last one; catching up stops here")
                }
                more = page.hasMore && !page.messages.isEmpty && moved
            }
        } while syncState.again
        try await settle(arrived)
        return arrived
    }

    /// A message the server pushed in its `new_message` notification (docs/API.md §6.1): taken in as `sync`
    /// takes a fetched one — decrypted and stored in one transaction, then confirmed — except that the sync
    /// cursor stays where it is, since an earlier message may still wait on the server to be fetched.
    func receivePushed(_ item: ServerEvent.NewMessage) async throws(ClientError) {
        var arrived: [Message] = []
        if let received = try receive(item, movingCursor: false) { announce(received, into: &arrived) }
        _ = try await call(API.ConfirmDelivery.self, .init(messageIDs: [item.messageID]))
        try await settle(arrived)
    }

    /// Tells subscribers what one message became — stored durably already, so it is shown now rather than after
    /// the confirmation round trip — and adds it to `arrived`.
    private func announce(_ received: Received, into arrived: inout [Message]) {
        if !received.message.isHiddenControl {
            arrived.append(received.message)
            events.yield(.message(received.message))
        }
        if let filled = received.filled {
            arrived.append(filled)
            events.yield(.messageUpdated(filled))
        }
    }

    /// What follows new messages, however they came.
    private func settle(_ arrived: [Message]) async throws(ClientError) {
        // What could not be read is asked for again, and what others could not read is sent again (§2.1); both
        // lists were saved with the messages, so an interruption here only delays them to the next sync.
        try await sendRetryRequests()
        try await answerRetryRequests()
        try parts.trust.noticeIdentityChanges(me: keys.accountID)
        try parts.trust.noticeHeldKeyChanges(arrived)
        for sender in Set(arrived.map(\.senderID)) where try parts.contacts.contact(sender)?.displayName == nil {
            _ = try? await parts.contacts.learnProfile(sender)
        }
        // Titles other members passed on are checked against their creators' keys (§8.1).
        for (conversationID, title) in await GroupTitleRelay(dependencies: dependencies).settle() {
            events.yield(.groupRenamed(conversationID: conversationID, title: title))
        }
        for message in arrived where message.kind == "group_title" {
            events.yield(.groupRenamed(conversationID: message.conversationID, title: message.text))
        }
    }

    /// The timestamp of the newest message this device has taken in.
    func cursor() throws(ClientError) -> Int64 {
        let bytes = try database.read { try $0.get(Namespace.state, "cursor") }
        return bytes.flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    /// What one server message became: the stored message, and the earlier message a re-send completed.
    struct Received {
        var message: Message
        var filled: Message?
    }

    /// Decrypts and stores one server message; nil when it was already here (a duplicate delivery).
    ///
    /// A message that cannot be read changes no session state (the ciphers work on copies) and is kept as
    /// "could not decrypt"; in the same transaction it joins the list of messages to ask its sending device
    /// for again (docs/CLIENT.md §2.1). A retry request is checked and saved to be answered.
    private func receive(_ item: API.StoredMessage, movingCursor: Bool = true) throws(ClientError) -> Received? {
        let id = item.messageID, timestamp = item.timestamp
        let conversationID = item.conversationID, sender = item.senderID, senderDevice = item.senderDevice, kind = item.kind
        // `get_messages` answers are checked to carry it; a pushed one is taken in only when it does.
        guard let ciphertext = item.ciphertext else { throw .badResponse("message \(id) came without its ciphertext") }
        return try database.write { writer throws(ClientError) -> Received? in
            let exists = try Self.storage { try Bool.fetchOne(writer.db, sql: "SELECT 1 FROM messages WHERE message_id = ?", arguments: [id]) ?? false }
            if movingCursor {
                try Self.storage { try writer.put(Namespace.state, "cursor", Array(String(max(timestamp, (try? self.cursor()) ?? 0)).utf8)) }
            }
            if exists { return nil }
            var message = Message(
                id: id, conversationID: conversationID, senderID: sender, senderDevice: senderDevice, timestamp: timestamp,
                text: "", kind: kind, replyTo: item.replyTo, forwardedFrom: nil, reactions: [:],
                pinned: false, deleted: false, deliveredTo: [], undecryptable: false)
            var filled: Message?
            if case .retryRequest(let request)? = try? ClientEnvelope(serialized: ciphertext) {
                // Never shown and never asked about again: kept only so a second delivery is recognised.
                message.kind = RetryRequest.kind
                try Self.storage {
                    if try !self.parts.retries.keep(request, from: message, in: writer) {
                        self.logger.debug("ignored a retry request that is not for this device or not signed by its sender")
                    }
                }
            } else if try Self.storage({ try TrustRecord.read(sender, in: writer)?.sendingBlocked == true }) {
                // Their key is not the one the user verified (it changed, or another account now has their address):
                // held unread, the ratchet not stepped, until the user accepts or verifies it (docs/CLIENT.md §9).
                try Self.storage { try HeldMessage.keep(&message, ciphertext: ciphertext, in: writer) }
            } else {
                do {
                    filled = try self.open(ciphertext, into: &message, in: writer)
                } catch ProtocolError.untrustedIdentity {
                    // A verified contact's key changed: held, not dropped, until the user accepts it (docs/CLIENT.md §9).
                    if try !Self.storage({ try HeldMessage.hold(&message, ciphertext: ciphertext, in: writer) }) { message.undecryptable = true }
                } catch {
                    // Kept as a visible "cannot decrypt" so the user knows something is missing, and asked for again.
                    message.undecryptable = true
                }
                if message.undecryptable, message.heldForKeyChange != true {
                    try Self.storage { try self.parts.retries.noteUnreadable(message, in: writer) }
                }
            }
            try Self.storage { try self.storeMessage(message, in: writer) }
            try Self.storage {
                try self.noteUnseen(message, in: writer)
                // Shown once as "could not decrypt", it is news again now that it can be read.
                if let filled { try self.noteUnseen(filled, in: writer) }
            }
            return Received(message: message, filled: filled)
        }
    }

    /// Decrypts `ciphertext` and fills `message` with its content (a group title also renames the group).
    /// A re-send fills the message it stands for instead, which is returned.
    @discardableResult
    func open(_ ciphertext: [UInt8], into message: inout Message, in writer: ClientDatabase.Writer) throws -> Message? {
        let content = try decrypt(ciphertext, conversationID: message.conversationID, sender: message.senderID, device: message.senderDevice)
        if let original = content.resendOf {
            message.kind = RetryRequest.resendKind
            return try fillFromResend(content, original: original, resend: message, in: writer)
        }
        try apply(content, to: &message, in: writer)
        return nil
    }

    /// Fills `message` with what `content` says (a group title also renames the group, a picture or location
    /// key is remembered).
    func apply(_ content: MessageContent, to message: inout Message, in writer: ClientDatabase.Writer) throws {
        message.text = content.text ?? ""
        message.replyTo = content.replyTo ?? message.replyTo
        message.forwardedFrom = content.forward
        message.attachment = content.type == "file" ? content.file : nil
        if let pointer = content.file, content.type == "avatar" || content.type == "group_avatar" {
            let record = content.type == "avatar" ? AvatarBook.record(account: message.senderID) : AvatarBook.record(group: message.conversationID)
            try AvatarBook.remember(pointer, for: record, in: writer)
            message.kind = content.type
        }
        if content.type == LocationKeyContent.type {
            try parts.locationKeys.receive(content.location, into: &message, fromMe: message.senderID == keys.accountID, in: writer)
        }
        if content.type == "group_title" { try takeTitle(content, into: &message, in: writer) }
    }

    /// A group title (docs/CLIENT.md §8, §8.1). Only the creator names a group: its title renames it at once, and
    /// its proof is kept to pass on. Another member's copy with a proof waits, unseen, to be checked against the
    /// creator's key (`GroupTitleRelay.settle`); another member's title without one is shown as what it is, a
    /// message, and renames nothing.
    private func takeTitle(_ content: MessageContent, into message: inout Message, in writer: ClientDatabase.Writer) throws {
        let conversation = try writer.reader.get(Namespace.conversation, String(message.conversationID))
            .flatMap { try? JSONDecoder().decode(Conversation.self, from: Data($0)) }
        let title = content.text ?? ""
        // A direct conversation has no title: a title sent there is only someone's words.
        if conversation?.kind == "direct" {
            message.kind = "text"
            return
        }
        // The creator's word: from the creator, or from one who was the creator when they sent it (§8).
        let fromCreator = conversation.map { $0.creatorID == message.senderID || $0.sentByFormerCreator(message.senderID) } ?? false
        if let proof = content.titleProof, !fromCreator {
            message.kind = SignedTitle.relayKind
            try SignedTitle.stashRelayed(SignedTitle(title: title, proof: proof), of: message.conversationID, in: writer)
        } else if conversation == nil || fromCreator {
            // The title this device has, signed again (after the creator's key rotation): a new proof, not news.
            let unchanged = conversation?.title == title && content.titleProof != nil
            try ConversationBook.setTitle(content.text, of: message.conversationID, in: writer)
            let signed = content.titleProof.map { SignedTitle(title: title, proof: $0) }
            try SignedTitle.keep(signed, of: message.conversationID, members: conversation?.members ?? [], in: writer)
            message.kind = unchanged ? SignedTitle.relayKind : "group_title"
        } else {
            message.kind = "text"
        }
    }

    /// Opens an envelope from `sender.device`.
    func decrypt(_ bytes: [UInt8], conversationID: Int64, sender: Int64, device: UInt32) throws -> MessageContent {
        try sessions.decrypt(bytes, conversationID: conversationID, sender: sender, device: device, local: try localAddress())
    }
}
