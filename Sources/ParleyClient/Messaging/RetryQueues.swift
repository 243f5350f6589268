import Foundation
import ParleyClientFormats
import ParleyProtocol

/// The two queues of message recovery (docs/CLIENT.md §2.1), kept in the vault: what this device could not read and
/// will ask its sender for (`retry_out`, per sending device and conversation), and the signed requests of other
/// devices this one will answer (`retry_in`). It decides what is asked and what is answered; sealing and sending
/// stay with `SessionOwner`, which owns the sessions.
struct RetryQueues: Sendable {
    typealias Dependencies = HasDatabase & HasClock & Sendable
    let keys: AccountKeyBook
    let dependencies: any Dependencies

    /// Most message ids waiting to be asked for, per sending device and conversation; older ones are dropped.
    static let maximumPendingRetries = 64

    /// A request ready to go: signed, for one sending device and conversation, naming up to
    /// `RetryRequest.maximumMessages` of the ids waiting under `key`.
    struct Outgoing {
        let key: String
        let request: RetryRequest
        let address: ProtocolAddress
    }

    private var database: ClientDatabase { dependencies.database }

    /// Adds `message` to the list to ask its sending device for (inside the transaction that stores it).
    func noteUnreadable(_ message: Message, in writer: ClientDatabase.Writer) throws {
        let me = keys.current
        // Control messages are not asked for again (no loops); neither is anything from this very device.
        guard !message.isHiddenControl, message.senderDevice != 0,
              !(message.senderID == me.accountID && message.senderDevice == me.deviceID) else { return }
        let key = "\(message.senderID).\(message.senderDevice).\(message.conversationID)"
        var ids = try writer.reader.get(Namespace.retryOut, key).flatMap { try? JSONDecoder().decode([Int64].self, from: Data($0)) } ?? []
        ids.append(message.id)
        try writer.put(Namespace.retryOut, key, Array(try JSONEncoder().encode(Array(ids.suffix(Self.maximumPendingRetries)))))
    }

    /// The requests to send now, one per sending device and conversation, signed with this account's identity key;
    /// a malformed entry is dropped.
    func outgoing() throws(ClientError) -> [Outgoing] {
        let keys = self.keys.current
        let (me, myDevice) = try keys.confirmedIdentity()
        var ready: [Outgoing] = []
        for (key, bytes) in try database.read({ try $0.all(Namespace.retryOut) }) {
            let parts = key.split(separator: ".").compactMap { Int64($0) }
            guard parts.count == 3, let ids = try? JSONDecoder().decode([Int64].self, from: Data(bytes)), !ids.isEmpty,
                  let address = try? ProtocolAddress(accountId: String(parts[0]), deviceId: UInt32(truncatingIfNeeded: parts[1]))
            else {
                try database.write { try $0.delete(Namespace.retryOut, key) }
                continue
            }
            let request = RetryRequest(
                accountID: me, deviceID: myDevice, recipientAccountID: parts[0], recipientDeviceID: address.deviceId,
                conversationID: parts[2], created: dependencies.clock.now(), messageIDs: Array(ids.prefix(RetryRequest.maximumMessages)),
                signingKey: keys.identity.privateKey)
            ready.append(Outgoing(key: key, request: request, address: address))
        }
        return ready
    }

    /// Takes what `sent` asked for off its list (sent, or refused for good: nobody is left to ask).
    func settle(_ sent: Outgoing) throws(ClientError) {
        try database.write { writer in
            let ids = try writer.reader.get(Namespace.retryOut, sent.key).flatMap { try? JSONDecoder().decode([Int64].self, from: Data($0)) } ?? []
            let rest = ids.filter { !sent.request.messageIDs.contains($0) }
            if rest.isEmpty { try writer.delete(Namespace.retryOut, sent.key) } else { try writer.put(Namespace.retryOut, sent.key, Array(try JSONEncoder().encode(rest))) }
        }
    }

    /// Keeps a retry request that is for this device and signed by the account that sent it, to answer after the
    /// sync; anything else is ignored. True when kept (inside the transaction that stores the request's message).
    @discardableResult
    func keep(_ request: RetryRequest, from message: Message, in writer: ClientDatabase.Writer) throws -> Bool {
        let me = keys.current
        let ownKey = request.accountID == me.accountID ? me.identity.publicKey : nil
        guard request.accountID == message.senderID, request.deviceID == message.senderDevice,
              request.conversationID == message.conversationID,
              request.recipientAccountID == me.accountID, request.recipientDeviceID == me.deviceID,
              let identityKey = try writer.reader.get(Namespace.identity, String(request.accountID)) ?? ownKey,
              request.isSigned(by: identityKey)
        else { return false }
        try writer.put(Namespace.retryIn, String(message.id), request.serialized)
        return true
    }

    /// The kept requests to answer, by their key; an unreadable one is dropped.
    func incoming() throws(ClientError) -> [(key: String, request: RetryRequest)] {
        var requests: [(key: String, request: RetryRequest)] = []
        for (key, bytes) in try database.read({ try $0.all(Namespace.retryIn) }) {
            guard let request = try? RetryRequest(serialized: bytes) else {
                try database.write { try $0.delete(Namespace.retryIn, key) }
                continue
            }
            requests.append((key, request))
        }
        return requests
    }

    /// Forgets an answered request (or one refused for good).
    func answered(_ key: String) throws(ClientError) {
        try database.write { try $0.delete(Namespace.retryIn, key) }
    }
}
