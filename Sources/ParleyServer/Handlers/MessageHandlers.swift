import Foundation
import ParleyWire

/// `send_message`, `get_messages`, `confirm_delivery`.
enum MessageHandlers {
    static func register(in router: inout RequestRouter) {
        router.add(API.SendMessage.self) { request, environment, context throws(WireError) in
            try await send(request, environment.account, context)
        }
        router.add(API.GetMessages.self) { request, environment, context throws(WireError) in
            try await fetch(request, environment.account, context)
        }
        router.add(API.ConfirmDelivery.self) { request, environment, context throws(WireError) in
            try await confirm(request, environment.account, context)
        }
    }

    static func send(_ request: API.SendMessage.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.SendMessage.Response {
        let conversationID = request.conversationID, kind = request.kind, replyTo = request.replyTo
        // The store takes the request's envelopes as they are: no ciphertext is copied.
        let envelopes = request.envelopes
        let target = try directedDevice(request, caller: caller)
        let message = NewMessage(
            conversationID: conversationID, senderID: caller.accountID, senderDevice: caller.deviceID,
            clientMessageID: request.clientMessageID, kind: kind, replyTo: replyTo, envelopes: envelopes, directed: target != nil)
        let given = message.envelopeDevices
        if let target, given != [target] {
            throw .invalid("envelopes", "a message for one device carries exactly one envelope, for that device")
        }
        if let replyTo {
            // Membership first, so that a stranger learns nothing about which conversation a message is in.
            let memberDevices = try await StoreCall.call(context) { try await context.store.activeMemberDevices(conversationID: conversationID) }
            guard memberDevices.contains(where: { $0.accountID == caller.accountID }) else { throw WireError(.notFound, "no such conversation") }
            let replyConversation = try await StoreCall.call(context) { try await context.store.conversationID(ofMessage: replyTo) }
            guard replyConversation == conversationID else { throw .invalid("reply_to", "is not a message of this conversation") }
        }
        // The membership is checked inside the insert's transaction (`NewMessage.fits`): one store call instead of
        // two, and no member can be removed between the check and the insert.
        let insertion = try await StoreCall.call(context) {
            try await context.store.insertMessage(
                message, now: context.clock.now(), checkingMembers: true, maximumUndeliveredBytes: context.configuration.undeliveredQuota)
        }
        let stored: StoredMessage
        switch insertion {
        case .stored(let message):
            stored = message
            if !message.created {
                // A retry finds its message by (sender, client id): one of another conversation is not this message
                // (found by an outside probe: the answer named the other conversation's message, and nothing was sent).
                let found = try await StoreCall.call(context) { try await context.store.conversationID(ofMessage: message.id) }
                guard found == conversationID else {
                    throw WireError(.conflict, "client_message_id is already the id of another message of yours; give each message its own")
                }
            }
        case .refused(let memberDevices):
            guard memberDevices.contains(where: { $0.accountID == caller.accountID }) else { throw WireError(.notFound, "no such conversation") }
            let required = target == nil ? message.requiredDevices(memberDevices) : []
            throw WireError(
                .staleDevices, "the conversation's devices changed: encrypt for exactly the devices in details and send again",
                details: [
                    "missing_devices": .array(required.subtracting(given).sorted().map(\.json)),
                    "extra_devices": .array(given.subtracting(required).sorted().map(\.json)),
                ])
        case .overQuota(let held):
            throw WireError(.quotaExceeded, Self.undeliveredQuotaMessage(held: held, quota: context.configuration.undeliveredQuota))
        }
        if stored.created {
            // One notification per device, each with that device's own envelope when it is short (pushed; docs/API.md
            // §6.1): a connected device then has the ciphertext without a `get_messages` round trip. Whoever the
            // message is withheld from hears nothing.
            let hint = ServerEvent.NewMessage(
                messageID: stored.id, conversationID: conversationID, senderID: caller.accountID, senderDevice: caller.deviceID,
                timestamp: stored.timestamp, kind: kind, replyTo: replyTo, ciphertext: nil)
            for envelope in envelopes where !stored.withheld.contains(envelope.accountID)
                && !(envelope.accountID == caller.accountID && envelope.deviceID == caller.deviceID)
            {
                var pushed = hint
                if envelope.ciphertext.count <= context.configuration.limits.pushedEnvelopeLimit { pushed.ciphertext = envelope.ciphertext }
                context.notifications.notify(accountID: envelope.accountID, deviceID: envelope.deviceID, .newMessage(pushed))
            }
        }
        return API.SendMessage.Response(messageID: stored.id, timestamp: stored.timestamp)
    }

    /// Why a message was refused for the sender's undelivered messages, in the sender's words.
    static func undeliveredQuotaMessage(held: Int64, quota: Int64) -> String {
        "your messages still waiting for delivery hold \(AdminText.bytes(held)) of the \(AdminText.bytes(quota)) this server keeps "
            + "for you; this one does not fit until your contacts' devices fetch some (or the server expires them): send it again later"
    }

    /// The one device a directed message (a retry request or a re-send, docs/API.md §6) is for, if any.
    static func directedDevice(_ request: API.SendMessage.Request, caller: Caller) throws(WireError) -> DeviceAddress? {
        guard let account = request.toAccountID, let device = request.toDeviceID else { return nil }
        guard !(account == caller.accountID && device == caller.deviceID) else {
            throw .invalid("to_device_id", "is the sending device")
        }
        return DeviceAddress(account: account, device: device)
    }

    static func fetch(_ request: API.GetMessages.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.GetMessages.Response {
        let after = request.afterTimestamp ?? 0
        let limit = request.limit ?? 100
        let budget = API.GetMessages.maximumPageBytes
        let page = try await StoreCall.call(context) {
            try await context.store.messages(
                accountID: caller.accountID, deviceID: caller.deviceID, afterTimestamp: after, limit: limit + 1, maximumBytes: budget)
        }
        let sent = pageWithin(page, limit: limit, maximumBytes: budget)
        return API.GetMessages.Response(messages: page.prefix(sent).map(storedMessage), hasMore: page.count > sent)
    }

    /// How many of `page`'s first messages one answer carries: at most `limit`, and no more ciphertext than
    /// `maximumBytes` — except the first message, which always goes (an envelope is at most 256 KiB).
    static func pageWithin(_ page: [DeliverableMessage], limit: Int, maximumBytes: Int) -> Int {
        var count = 0, bytes = 0
        for message in page.prefix(limit) {
            bytes += message.ciphertext.count
            guard count == 0 || bytes <= maximumBytes else { break }
            count += 1
        }
        return count
    }

    /// A message as `get_messages` lists it, with the device's ciphertext (the array is shared, not copied).
    static func storedMessage(_ message: DeliverableMessage) -> API.StoredMessage {
        API.StoredMessage(
            messageID: message.id, conversationID: message.conversationID, senderID: message.senderID, senderDevice: message.senderDevice,
            timestamp: message.timestamp, kind: message.kind, replyTo: message.replyTo, ciphertext: message.ciphertext)
    }

    static func confirm(_ request: API.ConfirmDelivery.Request, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> API.ConfirmDelivery.Response {
        let ids = request.messageIDs
        let confirmed = try await StoreCall.call(context) {
            try await context.store.confirmDelivery(accountID: caller.accountID, deviceID: caller.deviceID, messageIDs: ids, now: context.clock.now())
        }
        ServerMetrics.delivered(confirmed.count)
        for delivery in confirmed where delivery.tellsSender {
            context.notifications.notify(
                accountID: delivery.senderID,
                .messageDelivered(.init(messageID: delivery.messageID, accountID: caller.accountID, deviceID: caller.deviceID)))
        }
        return API.ConfirmDelivery.Response(confirmed: confirmed.count)
    }
}

extension DeviceAddress {
    /// As `stale_devices` details list it.
    var json: JSONValue { ["account_id": .number(Double(account)), "device_id": .number(Double(device))] }
}
