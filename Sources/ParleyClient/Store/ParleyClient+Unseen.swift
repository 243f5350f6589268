import Foundation
import GRDB

/// What "new" means is `Inbox`'s (docs/CLIENT.md §5); receiving notes each stored message as unseen here.
extension ParleyClient {
    /// Notes a stored message as not shown yet, unless it is this device's own or a control message
    /// (inside the transaction that stores it).
    func noteUnseen(_ message: Message, in writer: ClientDatabase.Writer) throws {
        guard !message.isHiddenControl, !(message.senderID == keys.accountID && message.senderDevice == keys.deviceID) else { return }
        try writer.put(Namespace.unseen, String(message.id), [])
    }
}
