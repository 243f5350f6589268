import Foundation
import ParleyMailFormats
import ParleyPGP

/// Which key `send` encrypts to for each recipient (docs/MAIL.md §6): the person's own keys first, then a key
/// learned from Autocrypt or gossip, then the recipient's Web Key Directory (asked now, the answer kept).
public struct RecipientKeys: Sendable {
    /// One recipient's key and, when it is not one of the person's own, where it came from.
    public struct Choice: Sendable {
        public let address: String
        public let certificate: Certificate
        public let origin: KeyOrigin?
    }

    /// What was found: a choice per address that has a key, and why each other one has none.
    public struct Result: Sendable {
        public var chosen: [Choice] = []
        public var missing: [(address: String, why: String?)] = []
    }

    let store: MailStore
    let lookup: WKDLookup?

    /// `lookup` nil: no Web Key Directory is asked.
    public init(store: MailStore, lookup: WKDLookup?) {
        self.store = store
        self.lookup = lookup
    }

    /// Keys for `addresses` (lowercased, in order); `own` are the certificates of the person's keyring.
    /// `asking` is told before a directory is asked.
    public func resolve(_ addresses: [String], own: [Certificate], now: Date = Date(),
                        asking: (String) -> Void = { _ in }) async throws(MailboxError) -> Result {
        let seconds = Int64(now.timeIntervalSince1970)
        var result = Result()
        for address in addresses.map({ $0.lowercased() }) {
            if let mine = own.first(where: { $0.names(address) }) {
                result.chosen.append(Choice(address: address, certificate: mine, origin: nil))
            } else if let learned = try store.learnedKey(for: address, now: seconds) {
                result.chosen.append(Choice(address: address, certificate: learned.certificate, origin: learned.origin))
            } else if let lookup {
                asking(address)
                let outcome: WKDLookup.Outcome
                do {
                    outcome = try await lookup.key(for: address, now: UInt32(clamping: seconds))
                } catch {
                    // A directory that cannot be asked is the same as none: the person decides (--plain).
                    result.missing.append((address, error.description))
                    continue
                }
                switch outcome {
                case .found(let certificate, _):
                    try store.remember(wkd: certificate, for: address, at: seconds)
                    result.chosen.append(Choice(address: address, certificate: certificate, origin: .wkd))
                case .none(let why):
                    result.missing.append((address, why))
                }
            } else {
                result.missing.append((address, nil))
            }
        }
        return result
    }
}
