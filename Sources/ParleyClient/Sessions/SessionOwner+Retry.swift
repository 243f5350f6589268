import Foundation
import ParleyClientFormats
import ParleyProtocol
import ParleyWire

/// Recovering messages a device could not read, without ever dropping a session (docs/CLIENT.md §2.1): the
/// sending and answering; what waits to be asked or answered is `RetryQueues`.
///
/// The device that failed sends the sender's device a signed `RetryRequest`; the sender checks the signature
/// with the requester's identity key and sends each named message once more, to that device only, on a fresh
/// session (at most one fresh session per device an hour). Nothing the server says or injects can make
/// either side forget a session: the server can only make a device ask, which costs it one small request.
extension SessionOwner {
    /// A device asked for a message gets at most one fresh session in this time, however often it asks.
    static let sessionRenewalInterval: Int64 = 3_600_000

    /// Sends one signed request per sending device and conversation with what could not be read (`RetryQueues`).
    func sendRetryRequests() async throws(ClientError) {
        for outgoing in try parts.retries.outgoing() {
            do {
                try await sendDirected(.retryRequest(outgoing.request), kind: RetryRequest.kind,
                                       conversationID: outgoing.request.conversationID, to: outgoing.address)
            } catch .notConnected, .disconnected, .timeout {
                return  // kept for the next sync
            } catch .server(let refusal) where refusal.code == .rateLimited || refusal.code == .unavailable || refusal.code == .internal {
                return
            } catch {
                // Refused for good (the device or the conversation is gone): nobody is left to ask.
                logger.debug("a retry request was refused", metadata: ["error": "\(error)"])
            }
            try parts.retries.settle(outgoing)
        }
    }

    /// Sends again, once per requesting device, each requested message this device sent and still has.
    func answerRetryRequests() async throws(ClientError) {
        for (key, request) in try parts.retries.incoming() {
            let address = try! ProtocolAddress(accountId: String(request.accountID), deviceId: request.deviceID)
            do {
                // It may lack our sender-key chain too: our next group message carries it to that device again.
                try sessions.forgetDistribution(to: address)
                for id in request.messageIDs { try await resend(id, of: request, to: address) }
            } catch .notConnected, .disconnected, .timeout {
                return  // the request is kept: the next sync answers it
            } catch .server(let refusal) where refusal.code == .rateLimited || refusal.code == .unavailable || refusal.code == .internal {
                return
            } catch {
                logger.debug("a re-send was refused", metadata: ["error": "\(error)"])
            }
            try parts.retries.answered(key)
        }
    }

    /// Sends message `id` again to `address` as a re-send (content `resend_of`), if this device sent it in
    /// the request's conversation to that very device, still has it, has not deleted it, and has not sent it to
    /// that device again before. A member who joined later (or a device added later) asking for an older message
    /// gets nothing: the request proves who asks, not that they were ever meant to read it.
    private func resend(_ id: Int64, of request: RetryRequest, to address: ProtocolAddress) async throws(ClientError) {
        let device = SentLog.device(account: request.accountID, device: request.deviceID)
        guard let record = try parts.sentLog.record(id), record.conversationID == request.conversationID, record.wasSent(to: device),
              !record.resentTo.contains(device), try parts.history.message(id)?.deleted != true,
              var content = try? MessageContent.decode(record.content)
        else { return }
        content.resendOf = id
        try await renewSessionIfDue(with: address)
        let encrypted = try sessions.encrypt(content.encoded(), for: address)
        // They could not read it: no "delivered" tick for them until the re-send is (taken off first, so a fast
        // delivery of the re-send cannot be undone; at worst its tick is missed, never a false one shown).
        try updateMessage(id) { $0.deliveredTo.removeAll { $0 == request.accountID } }
        let resendID = try await sendDirected(.pairwise(encrypted), kind: RetryRequest.resendKind, conversationID: request.conversationID, to: address)
        try parts.sentLog.noteResent(id, record: record, to: device, as: resendID)
    }

    /// Starts a fresh session with `address` from its current bundle (the old one is archived, so what is
    /// still in flight on it decrypts), unless one was started in the last hour.
    private func renewSessionIfDue(with address: ProtocolAddress) async throws(ClientError) {
        let now = dependencies.clock.now()
        let last = try database.read { try $0.get(Namespace.renewed, address.description) }
            .flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        if let last, now - last < Self.sessionRenewalInterval, try sessions.hasSession(Int64(address.accountId)!, address.deviceId) { return }
        let answer = try await call(API.GetKeyBundle.self, .init(accountID: Int64(address.accountId)!))
        try startSessions(from: answer, account: Int64(address.accountId)!, renewing: [address.deviceId])
        try database.write { try $0.put(Namespace.renewed, address.description, Array(String(now).utf8)) }
    }

    /// Sends one envelope to one device of a conversation (a retry request or a re-send, docs/API.md §6);
    /// returns the server's id of the message.
    @discardableResult
    func sendDirected(_ envelope: ClientEnvelope, kind: String, conversationID: Int64, to address: ProtocolAddress) async throws(ClientError) -> Int64? {
        try await call(API.SendMessage.self, .init(
            conversationID: conversationID, clientMessageID: newClientMessageID(), kind: kind,
            envelopes: [Sessions.envelope(address, envelope)],
            toAccountID: Int64(address.accountId)!, toDeviceID: address.deviceId)).messageID
    }

    // MARK: the device that asked, again

    /// Puts a re-send's content into the message it stands for, if that message is one this device could not
    /// read from the same sender in the same conversation; returns the completed message. Anything else (a
    /// second re-send, a re-send of something readable) changes nothing.
    func fillFromResend(_ content: MessageContent, original: Int64, resend: Message, in writer: ClientDatabase.Writer) throws -> Message? {
        guard let body = try Data.fetchOne(writer.db, sql: "SELECT body FROM messages WHERE message_id = ?", arguments: [original]) else {
            return nil
        }
        var message = try JSONDecoder().decode(Message.self, from: Data(writer.reader.open(Array(body), binding: "message/\(original)")))
        guard message.undecryptable, message.heldForKeyChange != true, !message.isHiddenControl,
              message.senderID == resend.senderID, message.conversationID == resend.conversationID else { return nil }
        var stripped = content
        stripped.resendOf = nil
        try apply(stripped, to: &message, in: writer)
        message.undecryptable = false
        try storeMessage(message, in: writer)
        return message
    }
}
