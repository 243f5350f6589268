import Foundation
import GRDB
import ParleyProtocol

/// A contact's key that changed: noticed while sending and receiving, reported once, and a verified contact's
/// change blocks sending until the user accepts or verifies the new key.
extension Trust {
    /// Reports identity keys that changed under trust on first use (the protocol store noted them in
    /// `identity_changed`): status drops to unverified, each conversation with the contact gets a warning
    /// entry, subscribers get an event. The note is deleted in the same transaction, so a crash in between
    /// reports the change again rather than never. `me` is this account (its own keys are not a contact's).
    func noticeIdentityChanges(me: Int64?) throws(ClientError) {
        try noticeReplacedAccounts(me: me)
        let changed = try dependencies.database.read { try $0.all(Namespace.identityChanged) }
        for (key, previous) in changed {
            guard let account = Int64(key), account != me else {
                try dependencies.database.write { try $0.delete(Namespace.identityChanged, key) }
                continue
            }
            var record = try record(account) ?? TrustRecord(status: .trusted)
            record.status = .unverified
            record.previousKey = previous
            try reportKeyChange(of: account, record: record, conversation: nil) { writer in
                try writer.delete(Namespace.identityChanged, key)
            }
        }
    }

    /// A contact the user verified offers a different key: block sending and hold their messages until
    /// the user accepts or verifies it. Reported once per new key; returns whether it was new.
    @discardableResult
    func noticeBlockedKeyChange(of account: Int64, offeredKey: [UInt8], conversation: Int64?) throws(ClientError) -> Bool {
        guard let pinned = try dependencies.database.read({ try $0.get(Namespace.verified, String(account)) }), pinned != offeredKey else {
            return false
        }
        if try record(account)?.pendingKey == offeredKey { return false }
        let record = TrustRecord(status: .unverified, previousKey: pinned, pendingKey: offeredKey)
        try reportKeyChange(of: account, record: record, conversation: conversation) { _ in }
        return true
    }

    /// An e-mail this device knew as one account now belongs to another (`ContactBook.remember` noted it): to the
    /// person the address is who they talk to, so the new account's key is the address's changed key. Verified
    /// before: the verified key is pinned for the new account too, sending to it is blocked and its messages are held
    /// until the user accepts or verifies the new key. Only trusted on first use: the change is reported. Each note is
    /// acted on once and deleted in the same transaction as the pin.
    func noticeReplacedAccounts(me: Int64?) throws(ClientError) {
        let notes = try dependencies.database.read { try $0.all(Namespace.replacedAccount) }
        for (note, _) in notes {
            let ids = note.split(separator: "/").compactMap { Int64($0) }
            guard ids.count == 2, ids[0] != me, ids[1] != me else {
                try dependencies.database.write { try $0.delete(Namespace.replacedAccount, note) }
                continue
            }
            let (account, old) = (ids[0], ids[1])
            let pinned = try dependencies.database.read { try $0.get(Namespace.verified, String(old)) }
            let ownPin = try dependencies.database.read { try $0.get(Namespace.verified, String(account)) }
            let key = try knownIdentityKey(of: account)
            if let pinned, ownPin == nil {
                // The protocol now refuses any other key for this account (new sessions), and the record blocks sending.
                try dependencies.database.write { writer in
                    try writer.put(Namespace.verified, String(account), pinned)
                    try writer.delete(Namespace.replacedAccount, note)
                }
                if let key { try noticeBlockedKeyChange(of: account, offeredKey: key, conversation: nil) }
            } else if let previous = try knownIdentityKey(of: old), try record(account) == nil {
                // Reported once this account's key is known (its first session); until then the note waits.
                guard let key else { continue }
                if key == previous {
                    try dependencies.database.write { try $0.delete(Namespace.replacedAccount, note) }
                } else {
                    try reportKeyChange(of: account, record: TrustRecord(status: .unverified, previousKey: previous, pendingKey: nil),
                                        conversation: nil) { writer in try writer.delete(Namespace.replacedAccount, note) }
                }
            } else {
                try dependencies.database.write { try $0.delete(Namespace.replacedAccount, note) }
            }
        }
    }

    /// Refuses to send to a conversation with a contact whose verified key changed (or whose address belonged to
    /// a verified contact before).
    func ensureSendable(_ conversation: Conversation, me: Int64?) throws(ClientError) {
        try noticeReplacedAccounts(me: me)
        for member in conversation.members where member != me {
            if try record(member)?.sendingBlocked == true { throw .identityKeyChanged(try contacts.name(member)) }
        }
    }

    /// Stores the record and a warning entry in every conversation with `account` (and `conversation`),
    /// plus whatever `alsoWrite` does, in one transaction; then tells subscribers.
    private func reportKeyChange(
        of account: Int64, record: TrustRecord, conversation: Int64?, alsoWrite: (ClientDatabase.Writer) throws -> Void
    ) throws(ClientError) {
        let name = try contacts.name(account)
        var conversations = try conversations(with: account)
        if let conversation, !conversations.contains(conversation) { conversations.append(conversation) }
        let text = record.sendingBlocked
            ? "⚠ The identity key of \(name) changed after you verified it. Messages to and from them are held until you compare the new safety number ('parley verify \(name)') and accept it ('parley verify accept \(name)')."
            : "⚠ The identity key of \(name) changed. Compare the new safety number with them: 'parley verify \(name)'."
        let encoded = Array(try! JSONEncoder().encode(record))
        let now = dependencies.clock.now()
        let entries: [Message] = try dependencies.database.write { writer in
            try writer.put(Namespace.trust, String(account), encoded)
            try alsoWrite(writer)
            // A warning is news to the person, like a message.
            return try MessageHistory.storeLocal(conversations.sorted().map {
                MessageHistory.LocalEntry(conversationID: $0, senderID: account, kind: Message.keyChangeKind, text: text)
            }, at: now, in: writer)
        }
        for entry in entries { dependencies.events.yield(.message(entry)) }
        dependencies.events.yield(.identityKeyChanged(accountID: account, sendingBlocked: record.sendingBlocked))
    }
}

extension Trust {
    /// The conversations this device has with `account`, where what happens to its key is told.
    func conversations(with account: Int64) throws(ClientError) -> [Int64] {
        try dependencies.database.read { try $0.all(Namespace.conversation) }
            .compactMap { try? JSONDecoder().decode(Conversation.self, from: Data($0.value)) }
            .filter { $0.members.contains(account) }.map(\.id)
    }
}

extension Message {
    /// The `kind` of the local warning entry a key change adds to a conversation (never sent anywhere).
    public static let keyChangeKind = "key_change"

    /// Whether this is a local entry the client wrote (a key-change warning), not a message from the server.
    public var isLocalEntry: Bool { id < 0 }
}

extension Trust {
    /// After a receive pass: report, once per key, the verified contacts whose changed key held messages.
    func noticeHeldKeyChanges(_ arrived: [Message]) throws(ClientError) {
        for message in arrived where message.heldForKeyChange == true {
            guard let offered = try dependencies.database.read({ try $0.get(Namespace.state, "offered/\(message.senderID)") }) else { continue }
            try noticeBlockedKeyChange(of: message.senderID, offeredKey: offered, conversation: message.conversationID)
        }
    }
}
