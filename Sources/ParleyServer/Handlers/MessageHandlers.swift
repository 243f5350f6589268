import Foundation
import ParleyWire

/// `send_message`, `get_messages`, `confirm_delivery`.
enum MessageHandlers {
    static let maximumEnvelopes = 1_024
    static let maximumCiphertext = 256 * 1024
    static let maximumPage = 500

    static func register(in router: inout RequestRouter) {
        router.add("send_message", requiresLogin: true) { request, environment, context throws(WireError) in
            try await send(request, environment.caller!, context)
        }
        router.add("get_messages", requiresLogin: true) { request, environment, context throws(WireError) in
            try await fetch(request, environment.caller!, context)
        }
        router.add("confirm_delivery", requiresLogin: true) { request, environment, context throws(WireError) in
            try await confirm(request, environment.caller!, context)
        }
    }

    static func send(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let conversationID = try request.integer("conversation_id")
        let clientID = try request.string("client_message_id", maxBytes: 64)
        let kind = try request.optionalString("kind", maxBytes: 16) ?? "text"
        let replyTo = try request.optionalInteger("reply_to")
        let envelopes = try parseEnvelopes(request)
        let given = Set(envelopes.map { DeviceAddress(account: $0.accountID, device: $0.deviceID) })
        let target = try directedDevice(request, caller: caller)
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
        let message = NewMessage(
            conversationID: conversationID, senderID: caller.accountID, senderDevice: caller.deviceID,
            clientMessageID: clientID, kind: kind, replyTo: replyTo, envelopes: envelopes, directed: target != nil)
        // The membership is checked inside the insert's transaction: one store call instead of two, and no
        // member can be removed between the check and the insert.
        let insertion = try await StoreCall.call(context) {
            try await context.store.insertMessage(message, now: context.clock.now()) { memberDevices in
                memberDevices.contains { $0.accountID == caller.accountID }
                    && (target.map { isMember($0, memberDevices) } ?? (requiredDevices(memberDevices, sender: caller) == given))
            }
        }
        let stored: StoredMessage
        switch insertion {
        case .stored(let message):
            stored = message
        case .refused(let memberDevices):
            guard memberDevices.contains(where: { $0.accountID == caller.accountID }) else { throw WireError(.notFound, "no such conversation") }
            let required = target == nil ? requiredDevices(memberDevices, sender: caller) : []
            throw WireError(
                .staleDevices, "the conversation's devices changed: encrypt for exactly the devices in details and send again",
                details: [
                    "missing_devices": .array(required.subtracting(given).sorted().map(\.json)),
                    "extra_devices": .array(given.subtracting(required).sorted().map(\.json)),
                ])
        }
        if stored.created {
            // One notification per device, each with that device's own envelope when it is short (pushed; docs/API.md
            // §6.1): a connected device then has the ciphertext without a `get_messages` round trip. Whoever the
            // message is withheld from hears nothing.
            var fields = self.fields(DeliverableMessage(
                id: stored.id, conversationID: conversationID, senderID: caller.accountID, senderDevice: caller.deviceID,
                timestamp: stored.timestamp, kind: kind, replyTo: replyTo, ciphertext: []))
            fields.removeValue(forKey: NotificationHub.pushedField)
            for envelope in envelopes where !stored.withheld.contains(envelope.accountID)
                && !(envelope.accountID == caller.accountID && envelope.deviceID == caller.deviceID)
            {
                var pushed = fields
                if envelope.ciphertext.count <= context.configuration.limits.pushedEnvelopeLimit {
                    pushed[NotificationHub.pushedField] = .string(Data(envelope.ciphertext).base64EncodedString())
                }
                context.notifications.notify(accountID: envelope.accountID, deviceID: envelope.deviceID, event: "new_message", fields: pushed)
            }
        }
        return HandlerResult(["message_id": .number(Double(stored.id)), "timestamp": .number(Double(stored.timestamp))])
    }

    /// The one device a directed message (a retry request or a re-send, docs/API.md §6) is for, if any.
    static func directedDevice(_ request: WireRequest, caller: Caller) throws(WireError) -> DeviceAddress? {
        let account = try request.optionalInteger("to_account_id")
        let device = try request.optionalInteger("to_device_id", in: 1...Int64(UInt32.max))
        guard let account, let device else {
            guard account == nil, device == nil else { throw .invalid("to_device_id", "comes with to_account_id, and both name a device") }
            return nil
        }
        guard !(account == caller.accountID && UInt32(device) == caller.deviceID) else {
            throw .invalid("to_device_id", "is the sending device")
        }
        return DeviceAddress(account: account, device: UInt32(device))
    }

    static func isMember(_ device: DeviceAddress, _ memberDevices: [(accountID: Int64, deviceID: UInt32?)]) -> Bool {
        memberDevices.contains { $0.accountID == device.account && $0.deviceID == device.device }
    }

    static func parseEnvelopes(_ request: WireRequest) throws(WireError) -> [Envelope] {
        var envelopes: [Envelope] = []
        for (index, item) in try request.array("envelopes", maxCount: maximumEnvelopes).enumerated() {
            guard case .object(let object) = item,
                case .number(let account)? = object["account_id"], let accountID = Int64(exactly: account),
                case .number(let device)? = object["device_id"], let deviceID = UInt32(exactly: device),
                case .string(let text)? = object["ciphertext"], let data = Data(base64Encoded: text),
                !data.isEmpty, data.count <= maximumCiphertext
            else {
                throw .invalid("envelopes[\(index)]", "must be {\"account_id\", \"device_id\", \"ciphertext\": base64 of 1–\(maximumCiphertext) bytes}")
            }
            envelopes.append(Envelope(accountID: accountID, deviceID: deviceID, ciphertext: Array(data)))
        }
        guard Set(envelopes.map { DeviceAddress(account: $0.accountID, device: $0.deviceID) }).count == envelopes.count else {
            throw .invalid("envelopes", "names a device twice")
        }
        return envelopes
    }

    /// Every device of every active member, less the sending device (its own other devices included).
    static func requiredDevices(_ memberDevices: [(accountID: Int64, deviceID: UInt32?)], sender: Caller) -> Set<DeviceAddress> {
        var required: Set<DeviceAddress> = []
        for (account, device) in memberDevices {
            guard let device, !(account == sender.accountID && device == sender.deviceID) else { continue }
            required.insert(DeviceAddress(account: account, device: device))
        }
        return required
    }

    static func fetch(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        let after = try request.optionalInteger("after_ts") ?? 0
        let limit = Int(try request.optionalInteger("limit", in: 1...Int64(maximumPage)) ?? 100)
        let page = try await StoreCall.call(context) {
            try await context.store.messages(accountID: caller.accountID, deviceID: caller.deviceID, afterTimestamp: after, limit: limit + 1)
        }
        let messages = page.prefix(limit)
        return HandlerResult([
            "messages": .array(messages.map(json)),
            "has_more": .bool(page.count > limit),
        ])
    }

    static func json(_ message: DeliverableMessage) -> JSONValue { .object(fields(message)) }

    /// A message as `get_messages` lists it (and a `new_message` notification carries it).
    static func fields(_ message: DeliverableMessage) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        object["message_id"] = .number(Double(message.id))
        object["conversation_id"] = .number(Double(message.conversationID))
        object["sender_id"] = .number(Double(message.senderID))
        object["sender_device"] = .number(Double(message.senderDevice))
        object["timestamp"] = .number(Double(message.timestamp))
        object["kind"] = .string(message.kind)
        object["ciphertext"] = .string(Data(message.ciphertext).base64EncodedString())
        if let reply = message.replyTo { object["reply_to"] = .number(Double(reply)) }
        return object
    }

    static func confirm(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> HandlerResult {
        var ids: [Int64] = []
        for (index, value) in try request.array("message_ids", maxCount: maximumPage).enumerated() {
            guard case .number(let number) = value, let id = Int64(exactly: number) else {
                throw .invalid("message_ids[\(index)]", "must be a message id")
            }
            ids.append(id)
        }
        let confirmed = try await StoreCall.call(context) {
            try await context.store.confirmDelivery(accountID: caller.accountID, deviceID: caller.deviceID, messageIDs: ids, now: context.clock.now())
        }
        ServerMetrics.delivered(confirmed.count)
        for (messageID, senderID) in confirmed where senderID != caller.accountID {
            context.notifications.notify(
                accountID: senderID, event: "message_delivered",
                fields: ["message_id": .number(Double(messageID)), "account_id": .number(Double(caller.accountID)),
                         "device_id": .number(Double(caller.deviceID))])
        }
        return HandlerResult(["confirmed": .number(Double(confirmed.count))])
    }
}

/// One device of one account.
struct DeviceAddress: Hashable, Comparable, Sendable {
    let account: Int64
    let device: UInt32

    static func < (lhs: DeviceAddress, rhs: DeviceAddress) -> Bool { (lhs.account, lhs.device) < (rhs.account, rhs.device) }

    var json: JSONValue { ["account_id": .number(Double(account)), "device_id": .number(Double(device))] }
}
