import Foundation
import ParleyPGP

/// What a received message tells Autocrypt about its sender (Level 1 §2.3) or, decrypted, about its other
/// recipients (§2.4): who, at which effective date, with which valid header (docs/MAIL.md §6.1).
public struct AutocryptReceipt: Sendable {
    public let address: String
    /// The effective date: the Date header, or now when it is missing, unreadable or in the future.
    public let date: Int64
    /// A valid header whose key can encrypt; nil when the message had none (or none Parley may take).
    public let header: AutocryptHeader?

    /// The sender's receipt, or nil when Level 1 says not to process the message: not exactly one From
    /// address, or it is the account's own.
    /// `canEncrypt` decides whether a header's key can encrypt now (the default parses and checks it; a sync
    /// passes a memo, since one sender's many messages carry the same key).
    public static func sender(_ headers: MailHeaders, account: String, now: Date = Date(),
                              canEncrypt: ((AutocryptHeader) -> Bool)? = nil) -> AutocryptReceipt? {
        let from = MailAddresses.parse(headers["From"])
        guard from.count == 1, let address = from.first, address != account.lowercased() else { return nil }
        let date = effectiveDate(headers, now: now)
        let values = headers.values("Autocrypt").compactMap(AutocryptHeader.init).filter { $0.address == address }
        // Two valid headers for the sender: Level 1 says to ignore all of them.
        let header = values.count == 1 ? values[0] : nil
        let check = canEncrypt ?? { header in
            LearnedKey.usable(header.keydata, for: address, mustName: false, now: UInt32(clamping: Int64(now.timeIntervalSince1970))) != nil
        }
        let usable = header.flatMap { check($0) ? $0 : nil }
        return AutocryptReceipt(address: address, date: date, header: usable)
    }

    /// The gossip a decrypted message carries about its To and Cc recipients (never about the sender or the
    /// account itself), each with a key that can encrypt.
    public static func gossip(_ mail: Mail, account: String, now: Date = Date()) -> [AutocryptReceipt] {
        let recipients = Set(MailAddresses.parse(mail.headers["To"]) + MailAddresses.parse(mail.headers["Cc"]))
        let sender = Set(MailAddresses.parse(mail.headers["From"]))
        let date = effectiveDate(mail.headers, now: now)
        var seen = Set<String>()
        return mail.gossip.compactMap(AutocryptHeader.init).compactMap { header in
            guard recipients.contains(header.address), !sender.contains(header.address), header.address != account.lowercased(),
                  seen.insert(header.address).inserted,
                  LearnedKey.usable(header.keydata, for: header.address, mustName: false, now: UInt32(clamping: Int64(now.timeIntervalSince1970))) != nil
            else { return nil }
            return AutocryptReceipt(address: header.address, date: date, header: header)
        }
    }

    static func effectiveDate(_ headers: MailHeaders, now: Date) -> Int64 {
        let nowSeconds = Int64(now.timeIntervalSince1970)
        guard let written = headers["Date"].flatMap(MailDate.parse) else { return nowSeconds }
        return min(Int64(written.timeIntervalSince1970), nowSeconds)
    }

    /// Folders whose mail is not taken as a sender's word (Level 1: not from spam).
    public static func ignores(folder: String) -> Bool {
        let name = folder.lowercased()
        return ["junk", "spam", "trash", "deleted"].contains { name.contains($0) }
    }
}
