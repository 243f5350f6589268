import ParleyMailFormats
import ParleyPGP

/// Whom a reply goes to and under which subject: the original's Reply-To or From; with `all`, also its To
/// and Cc without the person's own address; each address once; "Re: " added unless the subject has it.
public struct MailReplyAddressing: Equatable, Sendable {
    /// The direct recipients.
    public let to: [String]
    /// The others (with `all`).
    public let cc: [String]
    /// The reply's subject.
    public let subject: String

    /// The addressing of a reply by `me` to a message with `headers`; a message with no sender address to
    /// reply to is refused, naming message `id`.
    public init(replyingTo headers: MailHeaders, id: Int64, me: String, all: Bool) throws(MailFlowError) {
        let me = me.lowercased()
        let direct = MailAddresses.parse(headers["Reply-To"] ?? headers["From"])
        guard !direct.isEmpty else { throw MailFlowError("message \(id) has no sender address to reply to") }
        let others = all ? MailAddresses.parse(headers["To"]) + MailAddresses.parse(headers["Cc"]) : []
        var seen = Set<String>()
        to = direct.filter { seen.insert($0).inserted }
        cc = others.filter { $0 != me && seen.insert($0).inserted }
        let original = headers.decoded("Subject") ?? ""
        subject = original.lowercased().hasPrefix("re:") ? original : "Re: \(original)"
    }
}
