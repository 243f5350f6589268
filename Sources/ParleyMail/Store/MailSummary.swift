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
        encrypted = type == "multipart/encrypted" || ByteSearch.contains(raw, "-----BEGIN PGP MESSAGE-----")
    }

    /// The summary of a message too large to fetch.
    public init(tooLargeWithSize size: Int) {
        encrypted = false
        tooLarge = true
        subject = "(not fetched: \(size / (1 << 20)) MiB is over the \(MailSync.largestMessage >> 20) MiB limit)"
    }
}
