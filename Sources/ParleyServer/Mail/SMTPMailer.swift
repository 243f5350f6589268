import Foundation
import Logging
import NIOCore
import NIOPosix

/// Delivers verification codes and notices through an SMTP server (RFC 5321), one connection per message.
public struct SMTPMailer: VerificationCodeSender {
    let configuration: SMTPConfiguration
    let group: any EventLoopGroup
    let logger: Logger

    /// A mailer; check it with `verify()` before accepting registrations.
    public init(configuration: SMTPConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, logger: Logger) throws(SMTPError) {
        _ = try MailMessage.checkedAddress(configuration.from)
        self.configuration = configuration
        self.group = group
        self.logger = logger
    }

    /// Connects, greets, starts TLS and logs in as configured, then says goodbye: a mailer that cannot
    /// deliver is found at start-up, not at the first registration.
    public func verify() async throws(SMTPError) {
        let session = try await SMTPSession.open(configuration, group: group)
        session.close()
    }

    public func send(code: String, to email: String) async throws {
        try await deliver(try MailMessage.verificationCode(code, to: email, from: configuration.from, date: Date()), what: "verification code")
    }

    public func sendRegistrationAttempt(to email: String) async throws {
        try await deliver(try MailMessage.registrationAttempt(to: email, from: configuration.from, date: Date()), what: "registration-attempt notice")
    }

    private func deliver(_ message: MailMessage, what: String) async throws {
        let email = message.recipient
        let session = try await SMTPSession.open(configuration, group: group)
        do {
            try await session.command("MAIL FROM:<\(configuration.from)>", expect: 250, step: "MAIL FROM")
            try await session.command("RCPT TO:<\(message.recipient)>", expect: 250, step: "RCPT TO")
            try await session.command("DATA", expect: 354, step: "DATA")
            try await session.send(message.dataSection)
            try await session.expect(250, step: "the message")
            session.close()
            logger.info("\(what) e-mailed", metadata: ["email": "\(email)"])
        } catch {
            session.close()
            logger.error("\(what) e-mail failed", metadata: ["email": "\(email)", "error": "\(error)"])
            throw error
        }
    }
}
