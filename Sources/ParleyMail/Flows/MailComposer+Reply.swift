import ParleyPGP

extension MailComposer {
    /// The reply by `me` to the message with `headers`, addressed as `addressing` says, in its thread
    /// (In-Reply-To its Message-ID, its References kept); `text`, with `original`'s text quoted below it when
    /// the original could be read.
    public init(reply addressing: MailReplyAddressing, to headers: MailHeaders, from me: String, text: String, quoting original: Mail?) {
        let body = original.map { MailOutgoing.quoting(text, original: $0) } ?? text
        self.init(from: me, to: addressing.to, subject: addressing.subject, text: body)
        cc = addressing.cc
        inReplyTo = headers["Message-ID"]
        references = headers["References"]
    }
}
