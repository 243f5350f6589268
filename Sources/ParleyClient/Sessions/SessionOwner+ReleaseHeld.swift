import Foundation
import ParleyClientFormats

extension SessionOwner {
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
            guard var message = try parts.history.message(id) else {
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
            events.yield(.messageUpdated(opened))
        }
        try database.write { try $0.delete(Namespace.state, "offered/\(sender)") }
    }
}
