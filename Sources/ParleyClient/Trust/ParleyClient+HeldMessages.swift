import Foundation
import ParleyClientFormats
import ParleyProtocol

/// A message from a contact whose verified key changed, kept (sealed) until the user accepts the new key.
struct HeldMessage: Codable, Sendable {
    let conversationID: Int64
    let sender: Int64
    let device: UInt32
    let ciphertext: [UInt8]
}

extension ParleyClient {
    /// The identity key a (prekey) message offers, if it carries one.
    static func offeredIdentityKey(in ciphertext: [UInt8]) -> [UInt8]? {
        let body: [UInt8]
        switch try? ClientEnvelope(serialized: ciphertext) {
        case .pairwise(let pairwise)?: body = pairwise
        case .group(let distribution?, _)?: body = distribution
        default: return nil
        }
        guard case .preKeyMessage(let message)? = try? ProtocolMessage(serialized: body) else { return nil }
        return message.identityKey
    }

    /// Keeps a message the protocol refused because its sender's key is not the verified one: the
    /// ciphertext is sealed under `held/ID` and the message shows as held. Returns false when the message
    /// offers no key (then it is simply undecryptable).
    func hold(_ message: inout Message, ciphertext: [UInt8], in writer: ClientDatabase.Writer) throws -> Bool {
        guard let offered = Self.offeredIdentityKey(in: ciphertext) else { return false }
        let held = HeldMessage(conversationID: message.conversationID, sender: message.senderID, device: message.senderDevice,
                               ciphertext: ciphertext)
        try writer.put(Namespace.held, String(message.id), Array(try JSONEncoder().encode(held)))
        try writer.put(Namespace.state, "offered/\(message.senderID)", offered)
        message.undecryptable = true
        message.heldForKeyChange = true
        return true
    }

    /// After a receive pass: report, once per key, the verified contacts whose changed key held messages.
    func noticeHeldKeyChanges(_ arrived: [Message]) throws(ClientError) {
        for message in arrived where message.heldForKeyChange == true {
            guard let offered = try database.read({ try $0.get(Namespace.state, "offered/\(message.senderID)") }) else { continue }
            try trust.noticeBlockedKeyChange(of: message.senderID, offeredKey: offered, conversation: message.conversationID)
        }
    }

    /// Decrypts, in arrival order, what `sender` sent while their key change was pending.
    func releaseHeldMessages(from sender: Int64) throws(ClientError) {
        let held = try database.read { try $0.all(Namespace.held) }
            .compactMap { entry -> (Int64, HeldMessage)? in
                guard let id = Int64(entry.key), let message = try? JSONDecoder().decode(HeldMessage.self, from: Data(entry.value)),
                      message.sender == sender else { return nil }
                return (id, message)
            }
            .sorted { $0.0 < $1.0 }
        for (id, item) in held {
            guard var message = try history.message(id) else {
                try database.write { try $0.delete(Namespace.held, String(id)) }
                continue
            }
            let opened: Message = try database.write { writer in
                message.heldForKeyChange = nil
                message.undecryptable = false
                do {
                    try self.open(item.ciphertext, into: &message, in: writer)
                } catch {
                    message.undecryptable = true
                }
                try self.storeMessage(message, in: writer)
                try self.noteUnseen(message, in: writer)
                try writer.delete(Namespace.held, String(id))
                return message
            }
            broadcaster.yield(.messageUpdated(opened))
        }
        try database.write { try $0.delete(Namespace.state, "offered/\(sender)") }
    }
}
