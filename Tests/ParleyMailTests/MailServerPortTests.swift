import ParleyMail
import Testing

/// The ports a mail server gets when the person gives none, and the security a submission port implies.
@Suite struct MailServerPortTests {
    @Test func imapPortsFollowTheSecurity() throws {
        #expect(try MailServer(imap: "imap.example.org", security: .tls).port == 993)
        #expect(try MailServer(imap: "imap.example.org", security: .starttls).port == 143)
        #expect(try MailServer(imap: "imap.example.org:1993", security: .tls).port == 1993)
        #expect(try MailServer(imap: "[::1]", security: .tls) == MailServer(host: "::1", port: 993, security: .tls))
    }

    @Test func submissionIsStartTLSOn587UnlessPort465OrTLSSaySoElse() throws {
        #expect(try MailServer(submission: "smtp.example.org", security: nil) == MailServer(host: "smtp.example.org", port: 587, security: .starttls))
        #expect(try MailServer(submission: "smtp.example.org:465", security: nil).security == .tls)
        #expect(try MailServer(submission: "smtp.example.org", security: .tls).port == 465)
        // Said explicitly, STARTTLS on 465 is what the person asked for.
        #expect(try MailServer(submission: "smtp.example.org:465", security: .starttls).security == .starttls)
        #expect(try MailServer(submission: "smtp.example.org:2525", security: nil) == MailServer(host: "smtp.example.org", port: 2525, security: .starttls))
    }

    @Test func garbageTruncatedAndOversizeAddressesAreRefused() {
        for text in ["", ":587", "smtp.example.org:", "smtp.example.org:0", "smtp.example.org:65536", "smtp.example.org:99999999999999999999",
                     "smtp.example.org:smtp", "[::1]:", "[::1]x:25", "[::1]25", "[]"] {
            #expect(throws: MailboxError.self, "\(text) was taken") { try MailServer(submission: text, security: nil) }
            #expect(throws: MailboxError.self, "\(text) was taken") { try MailServer(imap: text, security: .tls) }
        }
    }
}
