import ParleyMail
import ParleyPGP
import Testing

/// A reply as `mail reply` composes it: addressed, in its thread, the original quoted when it could be read.
@Suite struct MailComposerReplyTests {
    static func headers(_ text: String) throws -> MailHeaders { try MailHeaders.of(eml: Array((text + "\r\n\r\n").utf8)) }

    @Test func aReplyIsAddressedThreadedAndQuoted() throws {
        let headers = try Self.headers("""
            From: Bob <bob@example.org>\r
            To: ann@example.org, carol@example.org\r
            Subject: Lunch\r
            Message-ID: <m2@example.org>\r
            References: <m1@example.org>
            """)
        let addressing = try MailReplyAddressing(replyingTo: headers, id: 7, me: "ann@example.org", all: true)
        let original = Mail(headers: headers, blocks: [.plainText("noon?", signature: .none)])
        let reply = MailComposer(reply: addressing, to: headers, from: "ann@example.org", text: "yes\n", quoting: original)
        #expect(reply.from == "ann@example.org" && reply.to == ["bob@example.org"] && reply.cc == ["carol@example.org"])
        #expect(reply.subject == "Re: Lunch")
        #expect(reply.inReplyTo == "<m2@example.org>" && reply.references == "<m1@example.org>")
        #expect(reply.text.hasPrefix("yes\n\n") && reply.text.hasSuffix("> noon?\n"))
        #expect(reply.attachments.isEmpty)
    }

    @Test func anUnreadableOriginalIsAnsweredWithoutAQuoteAndMissingHeadersStayMissing() throws {
        let headers = try Self.headers("From: bob@example.org")
        let addressing = try MailReplyAddressing(replyingTo: headers, id: 7, me: "ann@example.org", all: false)
        let reply = MailComposer(reply: addressing, to: headers, from: "ann@example.org", text: "\u{1B}[2J plain", quoting: nil)
        #expect(reply.text == "\u{1B}[2J plain")
        #expect(reply.inReplyTo == nil && reply.references == nil)
        #expect(reply.subject == "Re: ")
    }
}
