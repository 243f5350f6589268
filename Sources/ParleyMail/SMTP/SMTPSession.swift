import CParleyMail
import Foundation
import NIOCore

/// One SMTP submission connection, spoken by libetpan (mailsmtp) through a `MailBridge`: verified TLS, or
/// STARTTLS done by the bridge before libetpan sees a byte. Its calls block: use it from a thread of its own.
final class SMTPSession {
    private let smtp: UnsafeMutablePointer<mailsmtp>
    let bridge: MailBridge

    init(server: MailServer, group: any EventLoopGroup) throws(MailboxError) {
        let bridge = try MailBridge.open(server, dialect: .smtp, group: group)
        guard let smtp = mailsmtp_new(0, nil) else {
            bridge.close()
            throw .connection("out of memory")
        }
        mailsmtp_set_timeout(smtp, time_t(MailBridge.readTimeout))
        let stream: UnsafeMutablePointer<mailstream>
        do {
            stream = try bridge.openStream()
        } catch {
            mailsmtp_free(smtp)
            bridge.close()
            throw error
        }
        self.smtp = smtp
        self.bridge = bridge
        // From here `self` is whole: if this throws, deinit frees the session and closes the bridge.
        try check(bridge.canceller.connect({ mailsmtp_connect(smtp, stream) }, succeeded: { Int($0) == MAILSMTP_NO_ERROR }), "the greeting")
        try check(mailesmtp_ehlo(smtp), "EHLO")
    }

    deinit {
        bridge.canceller.detach()
        mailsmtp_free(smtp)
        bridge.close()
    }

    /// AUTH (PLAIN or what the server offers, through libetpan's SASL); a refusal is `.loginFailed`.
    func login(username: String, password: String) throws(MailboxError) {
        let code = Int(mailsmtp_auth(smtp, username, password))
        if code == MAILSMTP_ERROR_AUTH_LOGIN || code == MAILSMTP_ERROR_AUTH_AUTHENTICATION_FAILED { throw .loginFailed }
        try check(Int32(code), "AUTH")
    }

    /// MAIL FROM, RCPT TO for each recipient, DATA with `message` (CRLF line ends).
    func send(from: String, to recipients: [String], message: [UInt8]) throws(MailboxError) {
        bridge.budget.allow(ByteBudget.ordinaryCommand)
        try check(mailesmtp_mail(smtp, from, 0, nil), "MAIL FROM")
        for recipient in recipients {
            let code = mailesmtp_rcpt(smtp, recipient, 0, nil)
            if Int(code) != MAILSMTP_NO_ERROR {
                throw .refused(command: "the recipient \(recipient.prefix(80))", reply: Self.reply(smtp))
            }
        }
        try check(mailsmtp_data(smtp), "DATA")
        let code = message.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { mailsmtp_data_message(smtp, $0.baseAddress, $0.count) }
        }
        try check(code, "the message")
    }

    /// QUIT, best effort.
    func quit() {
        // mailsmtp_quit closes the stream, and the server hangs up right after: the canceller lets go first.
        _ = bridge.canceller.handOver { mailsmtp_quit(smtp) }
    }

    private func check(_ code: Int32, _ command: String) throws(MailboxError) {
        let code = Int(code)
        if code == MAILSMTP_NO_ERROR { return }
        if let limit = bridge.budget.exceeded { throw .serverSentTooMuch(limit: limit) }
        switch code {
        case MAILSMTP_ERROR_STREAM: throw .connection("the connection broke during \(command)")
        case MAILSMTP_ERROR_AUTH_NOT_SUPPORTED: throw .refused(command: "AUTH", reply: "no login method Parley can use (PLAIN or LOGIN) is offered")
        default: throw .refused(command: command, reply: Self.reply(smtp))
        }
    }

    /// The server's last reply, printable and short.
    static func reply(_ smtp: UnsafeMutablePointer<mailsmtp>) -> String {
        IMAPSession.inert(UnsafePointer(smtp.pointee.response))
    }
}
