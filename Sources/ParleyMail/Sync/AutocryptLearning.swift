import Foundation
import ParleyMailFormats
import ParleyPGP

/// What one sync learns from senders' Autocrypt headers (docs/MAIL.md §6.1), kept cheap for large mailboxes: a
/// key is checked once per sync however many messages carry it, and a message without a header is looked at only
/// when its sender already has Autocrypt state (its only effect would be `last_seen`).
final class AutocryptLearning {
    private let store: MailStore
    private let now = Date()
    private var known: Set<String>
    private var checked: [[UInt8]: Bool] = [:]

    init(store: MailStore) throws(MailboxError) {
        self.store = store
        known = try store.peerIDs()
    }

    /// The receipt worth applying for a message with these headers, if any.
    func receipt(_ headers: MailHeaders) -> AutocryptReceipt? {
        let found = AutocryptReceipt.sender(headers, account: store.email, now: now) { [self] header in
            if let verdict = checked[header.keydata] { return verdict }
            let verdict = LearnedKey.usable(header.keydata, for: header.address, mustName: false,
                                            now: UInt32(clamping: Int64(now.timeIntervalSince1970))) != nil
            checked[header.keydata] = verdict
            return verdict
        }
        guard let found else { return nil }
        let id = store.peerID(found.address)
        if found.header != nil {
            known.insert(id)
            return found
        }
        return known.contains(id) ? found : nil
    }
}
