import Foundation
import GRDB

/// What "new" means: stored on this device and not shown to the person yet, whichever command or screen
/// fetched it (docs/CLIENT.md §5). Any command that connects also receives, so receiving cannot be what makes
/// a message old.
extension ParleyClient {
    /// Messages no command or screen has shown yet (of one conversation, or all), oldest first; they count as
    /// shown once returned.
    public func takeUnseenMessages(in conversationID: Int64? = nil) throws(ClientError) -> [Message] {
        let ids = try database.read { try $0.all(Namespace.unseen) }.compactMap { Int64($0.key) }
        var messages: [Message] = [], taken: [Int64] = []
        for id in ids {
            let message = try storedMessage(id)
            guard conversationID == nil || message?.conversationID == conversationID else { continue }
            taken.append(id)
            if let message, !message.isHiddenControl { messages.append(message) }
        }
        try markSeen(taken)
        return messages.sorted { ($0.timestamp, $0.id) < ($1.timestamp, $1.id) }
    }

    /// Marks messages as shown (a screen that displayed them as they arrived, a history that was read).
    public func markSeen(_ ids: [Int64]) throws(ClientError) {
        guard !ids.isEmpty else { return }
        try database.write { writer in for id in ids { try writer.delete(Namespace.unseen, String(id)) } }
    }

    /// Notes a stored message as not shown yet, unless it is this device's own or a control message
    /// (inside the transaction that stores it).
    func noteUnseen(_ message: Message, in writer: ClientDatabase.Writer) throws {
        guard !message.isHiddenControl, !(message.senderID == keys.accountID && message.senderDevice == keys.deviceID) else { return }
        try writer.put(Namespace.unseen, String(message.id), [])
    }
}
