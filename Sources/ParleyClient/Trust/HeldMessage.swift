import Foundation
import ParleyClientFormats
import ParleyProtocol

/// A message from a contact whose verified key changed, kept (sealed, in the account's database) until the user
/// accepts or verifies the new key; `SessionOwner.releaseHeldMessages` opens them then, in arrival order.
struct HeldMessage: Codable, Sendable {
    let conversationID: Int64
    let sender: Int64
    let device: UInt32
    let ciphertext: [UInt8]

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
    static func hold(_ message: inout Message, ciphertext: [UInt8], in writer: ClientDatabase.Writer) throws -> Bool {
        guard let offered = offeredIdentityKey(in: ciphertext) else { return false }
        try keep(&message, ciphertext: ciphertext, in: writer)
        try writer.put(Namespace.state, "offered/\(message.senderID)", offered)
        return true
    }

    /// Keeps a message from a contact whose changed key waits for the user (sending to them is blocked), unopened:
    /// sealed under `held/ID`, shown as held, opened in order once the key is accepted or verified.
    static func keep(_ message: inout Message, ciphertext: [UInt8], in writer: ClientDatabase.Writer) throws {
        let held = HeldMessage(conversationID: message.conversationID, sender: message.senderID, device: message.senderDevice,
                               ciphertext: ciphertext)
        try writer.put(Namespace.held, String(message.id), Array(try JSONEncoder().encode(held)))
        message.undecryptable = true
        message.heldForKeyChange = true
    }
}
