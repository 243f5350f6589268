import Foundation
import GRDB
import ParleyClientFormats
import ParleyCrypto
import ParleyProtocol
import ParleyWire

extension SessionOwner {
    func newClientMessageID() -> String {
        dependencies.random.clientMessageID()
    }

    /// Encrypts `entry` for every device the server expects, sends it, and records it locally.
    func deliver(_ entry: OutboxEntry) async throws(ClientError) -> Message {
        let (me, myDevice) = try identity()
        var conversation = try await parts.conversationBook.info(entry.conversationID)
        try parts.trust.ensureSendable(conversation, me: keys.accountID)
        if conversation.isRequest == true {
            // Writing back accepts a message request; said first, so the starter hears it with the message.
            try await parts.requests.accept(conversation.id)
            conversation = try await parts.conversationBook.info(entry.conversationID)
        }
        var answer: API.SendMessage.Response?
        var sentTo: [ProtocolAddress] = []
        for _ in 0..<4 where answer == nil {
            let recipients = try await recipientDevices(of: conversation.members, me: me, myDevice: myDevice)
            let request = API.SendMessage.Request(
                conversationID: entry.conversationID, clientMessageID: entry.content.id, kind: entry.kind, replyTo: entry.content.replyTo,
                envelopes: try sessions.envelopes(entry.content.encoded(), conversation: conversation, recipients: recipients, local: localAddress()))
            do {
                if let source = entry.forwardOf {
                    answer = try await call(API.ForwardMessage.self, .init(messageID: source, message: request))
                } else {
                    answer = try await call(API.SendMessage.self, request)
                }
                sentTo = recipients
            } catch .server(let error) where error.code == .staleDevices {
                // Members may have joined or left since we last looked: re-read them too.
                conversation = try await parts.conversationBook.refresh(entry.conversationID)
                try await applyStaleDevices(error.details)
            }
        }
        guard let answer else { throw .invalidInput("the conversation's devices kept changing; try again") }
        if conversation.unread > 0, try !hasUnseen(in: conversation.id) {
            // The server counts messages unread that the person has already been shown (a request's, which `requests`
            // showed and the reply accepts): with nothing new to them here, it is marked read, best effort, so the
            // count matches what `read` shows. A message fetched but not shown yet keeps it unread.
            _ = try? await call(API.MarkConversationRead.self, .init(conversationID: conversation.id))
        }
        if conversation.kind == "group" { try sessions.markDistributed(conversationID: conversation.id, to: sentTo) }
        let message = Message(
            id: answer.messageID, conversationID: entry.conversationID, senderID: me, senderDevice: myDevice,
            timestamp: answer.timestamp, text: entry.content.text ?? "", kind: entry.kind,
            replyTo: entry.content.replyTo, forwardedFrom: entry.content.forward, reactions: [:], pinned: false,
            deleted: false, deliveredTo: [], undecryptable: false,
            attachment: entry.content.type == "file" ? entry.content.file : nil)
        try database.write { writer in
            try self.storeMessage(message, in: writer)
            try self.parts.sentLog.record(
                message.id, conversationID: entry.conversationID, content: entry.content,
                recipients: sentTo.compactMap { address in Int64(address.accountId).map { ($0, address.deviceId) } }, in: writer)
            try Outbox.remove(entry.content.id, in: writer)
        }
        return message
    }

    /// Whether a message of `conversationID` waits to be shown to the person (`Inbox`'s unseen list).
    func hasUnseen(in conversationID: Int64) throws(ClientError) -> Bool {
        let unseen = try database.read { try $0.all(Namespace.unseen) }.compactMap { Int64($0.key) }
        for id in unseen where try parts.history.message(id)?.conversationID == conversationID { return true }
        return false
    }

    /// Every device of every member except this one, with a session ready for each.
    func recipientDevices(of members: [Int64], me: Int64, myDevice: UInt32) async throws(ClientError) -> [ProtocolAddress] {
        var out: [ProtocolAddress] = []
        for member in members {
            var devices = try parts.deviceLists.of(member)
            var needBundle = devices == nil
            for device in devices ?? [] where !(member == me && device == myDevice) {
                if try !sessions.hasSession(member, device) { needBundle = true }
            }
            if needBundle, member != me || devices?.isEmpty == false {
                devices = try await fetchBundles(of: member)
            }
            for device in devices ?? [] where !(member == me && device == myDevice) {
                out.append(try! ProtocolAddress(accountId: String(member), deviceId: device))
            }
        }
        return out
    }

    /// Fetches `account`'s prekey bundles and starts a session with each device that has none.
    @discardableResult
    func fetchBundles(of account: Int64) async throws(ClientError) -> [UInt32] {
        let answer = try await call(API.GetKeyBundle.self, .init(accountID: account))
        return try startSessions(from: answer, account: account)
    }

    /// Fetches the bundles of the account with `email` (starting sessions) and returns its account id.
    func fetchBundles(email: String) async throws(ClientError) -> Int64 {
        let answer = try await call(API.GetKeyBundle.self, .init(email: email))
        let account = answer.accountID
        try startSessions(from: answer, account: account)
        return account
    }

    /// Starts a session with each of `account`'s devices in `answer` that has none (or whose session was made
    /// under a retired identity of ours), and a fresh one with each device in `renewing` (the old one is archived).
    @discardableResult
    func startSessions(from answer: API.GetKeyBundle.Response, account: Int64, renewing: Set<UInt32> = []) throws(ClientError) -> [UInt32] {
        let identityKey = answer.identityKey
        var devices: [UInt32] = []
        for device in answer.devices {
            let id = device.deviceID
            devices.append(id)
            let address = try! ProtocolAddress(accountId: String(account), deviceId: id)
            let needed: Bool
            if renewing.contains(id) { needed = true } else { needed = try !sessions.hasSession(account, id) }
            guard needed, !(account == keys.accountID && id == keys.deviceID) else { continue }
            let bundle = PreKeyBundle(
                identityKey: identityKey, signedPreKeyId: device.signed.id,
                signedPreKey: device.signed.publicKey, signedPreKeySignature: device.signed.signature,
                oneTimePreKeyId: device.oneTime?.id, oneTimePreKey: device.oneTime?.key,
                pqPreKeyId: device.pq.id, pqPreKey: device.pq.publicKey, pqPreKeySignature: device.pq.signature)
            do {
                try sessions.startSession(with: address, bundle: bundle)
            } catch ProtocolError.untrustedIdentity {
                try parts.trust.noticeBlockedKeyChange(of: account, offeredKey: identityKey, conversation: nil)
                throw .identityKeyChanged(try parts.contacts.name(account))
            } catch {
                throw .invalidInput("account \(account) published an invalid key bundle for device \(id)")
            }
        }
        try parts.deviceLists.set(devices, of: account)
        try parts.trust.noticeIdentityChanges(me: keys.accountID)
        return devices
    }

    /// Re-reads this account's devices so copies go to every other device of ours.
    func refreshOwnDevices() async throws(ClientError) {
        let (account, _) = try identity()
        let devices = try await call(API.ListDevices.self).devices.map(\.deviceID)
        try parts.deviceLists.set(devices, of: account)
    }

    /// Applies a `stale_devices` answer: learn the missing devices, forget the extra ones.
    func applyStaleDevices(_ details: [String: JSONValue]) async throws(ClientError) {
        func addresses(_ name: String) -> [(Int64, UInt32)] {
            guard case .array(let items)? = details[name] else { return [] }
            return items.compactMap { item in
                guard case .object(let o) = item, let a = o.optionalInt("account_id"), let d = o.optionalInt("device_id") else { return nil }
                return (a, UInt32(truncatingIfNeeded: d))
            }
        }
        // A device that left stops getting envelopes. Its session stays (the server's word alone never drops
        // one): what it sent before it left still decrypts.
        for (account, device) in addresses("extra_devices") where device != 0 {
            let remaining = (try parts.deviceLists.of(account) ?? []).filter { $0 != device }
            try parts.deviceLists.set(remaining, of: account)
        }
        let (me, _) = try identity()
        // Our own new devices join the list here; `recipientDevices` fetches bundles for any without a session.
        for account in Set(addresses("missing_devices").map(\.0)) {
            if account == me { try await refreshOwnDevices() } else { try await fetchBundles(of: account) }
        }
    }
}

extension SessionOwner {
    /// Encrypts and sends `content` to a conversation now, never queued (a location key for a follower must not
    /// wait in the outbox after the server already allowed them), and records it.
    func deliverNow(_ content: MessageContent, kind: String, to conversationID: Int64) async throws(ClientError) {
        _ = try await deliver(OutboxEntry(conversationID: conversationID, content: content, kind: kind,
                                          forwardOf: nil, created: dependencies.clock.now()))
    }

    /// Seals `content` for each device of `members` (never this one) on its pairwise session and sends it to that
    /// device alone (a group's title to those who joined since it was set).
    func sendPairwise(_ content: MessageContent, kind: String, conversationID: Int64, toMembers members: [Int64]) async throws(ClientError) {
        let (me, myDevice) = try identity()
        for address in try await recipientDevices(of: members, me: me, myDevice: myDevice) {
            let encrypted = try sessions.encrypt(content.encoded(), for: address)
            try await sendDirected(.pairwise(encrypted), kind: kind, conversationID: conversationID, to: address)
        }
    }
}
