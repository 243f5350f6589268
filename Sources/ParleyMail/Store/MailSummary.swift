import Foundation
import ParleyPGP

/// What a mailbox list shows of one message, kept sealed beside it (docs/MAIL.md §3).
public struct MailSummary: Sendable, Codable, Equatable {
    public var from: String?
    public var to: String?
    public var subject: String?
    public var date: String?
    /// Whether the message is (or holds) an OpenPGP encrypted part.
    public var encrypted: Bool
    /// Set when the message was too large to fetch.
    public var tooLarge: Bool?

    /// The summary of a whole message; a message whose header cannot be read still gets one.
    public init(raw: [UInt8]) {
        self.init(headers: try? MailHeaders.of(eml: raw), raw: raw)
    }

    /// The summary from a message's header, already read, and its bytes.
    init(headers: MailHeaders?, raw: [UInt8]) {
        from = headers?.decoded("From")
        to = headers?.decoded("To")
        subject = headers?.decoded("Subject")
        date = headers?["Date"]
        let type = headers?.contentType.value ?? ""
        encrypted = type == "multipart/encrypted" || Self.contains(raw, "-----BEGIN PGP MESSAGE-----")
    }

    /// Whether `bytes` holds `text` (memchr and memcmp: Foundation's generic `firstRange` took 16 % of a sync's time).
    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let start = haystack.baseAddress, let wanted = needle.baseAddress else { return false }
                let last = haystack.count - needle.count
                var offset = 0
                while offset <= last {
                    guard let hit = memchr(start + offset, Int32(first), last - offset + 1) else { return false }
                    let index = UnsafeRawPointer(start).distance(to: UnsafeRawPointer(hit))
                    if memcmp(start + index, wanted, needle.count) == 0 { return true }
                    offset = index + 1
                }
                return false
            }
        }
    }

    /// The summary of a message too large to fetch.
    public init(tooLargeWithSize size: Int) {
        encrypted = false
        tooLarge = true
        subject = "(not fetched: \(size / (1 << 20)) MiB is over the \(MailSync.largestMessage >> 20) MiB limit)"
    }
}
