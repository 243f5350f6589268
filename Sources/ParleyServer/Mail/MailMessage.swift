import Foundation
import ParleyCrypto

/// The server's e-mails (verification code, registration-attempt notice) as RFC 5322 text, and the address checks that keep headers and SMTP commands
/// free of anything a registrant could inject.
struct MailMessage {
    let recipient: String
    /// The DATA section: CRLF lines, dot-stuffed, ending with `CRLF.CRLF`.
    let dataSection: [UInt8]

    /// An address used verbatim in `RCPT TO:<…>` and a header: printable ASCII without `<>()[]\,;:"` or spaces.
    static func checkedAddress(_ address: String) throws(SMTPError) -> String {
        let forbidden = Set("<>()[]\\,;:\" ")
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard address.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && !forbidden.contains(Character($0)) })
        else { throw .invalid("'\(address.unicodeScalars.filter { $0.value > 0x1F && $0.value < 0x7F })' cannot be used as a mail address") }
        return address
    }

    static func verificationCode(_ code: String, to recipient: String, from sender: String, date: Date) throws(SMTPError) -> MailMessage {
        try make(subject: "Your Parley verification code", body: [
            "Your Parley verification code is \(code).",
            "",
            "Type it with: parley account confirm \(code)",
            "It expires in 15 minutes. If you did not ask for it, ignore this e-mail.",
        ], to: recipient, from: sender, date: date)
    }

    /// The owner's notice that someone asked to register their address again; it carries no code.
    static func registrationAttempt(to recipient: String, from sender: String, date: Date) throws(SMTPError) -> MailMessage {
        try make(subject: "Someone tried to register your Parley address", body: [
            "Someone asked to register a new Parley account with this e-mail address, which already has one.",
            "Nothing was changed and no code was sent: your account and devices are as they were.",
            "",
            "If it was you, use your existing account, or sign in on a new device with: parley account login",
            "If it was not you, you need do nothing.",
        ], to: recipient, from: sender, date: date)
    }

    private static func make(subject: String, body: [String], to recipient: String, from sender: String, date: Date) throws(SMTPError) -> MailMessage {
        let to = try checkedAddress(recipient), from = try checkedAddress(sender)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@")[1]
        let id = Hex.lower((0..<16).map { _ in UInt8.random(in: 0...255) })
        let lines = [
            "From: Parley <\(from)>",
            "To: <\(to)>",
            "Subject: \(subject)",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(id)@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "Auto-Submitted: auto-generated",
            "",
        ] + body
        // Dot-stuffing (RFC 5321 §4.5.2): a line starting with "." gets another.
        let body = lines.map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n") + "\r\n.\r\n"
        return MailMessage(recipient: to, dataSection: Array(body.utf8))
    }
}
