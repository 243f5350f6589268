import NIOCore
import NIOPosix

/// Sends a composed message through the account's submission server, then keeps a copy in its Sent folder.
public enum MailSubmission {
    /// What happened to the copy.
    public struct Outcome: Sendable, Equatable {
        /// The folder the copy went to, or nil when it could not be stored (the message was sent regardless).
        public var sentFolder: String?
        public var copyProblem: String?
        /// Whether the answered message was marked \\Answered on the server.
        public var markedAnswered = false
    }

    /// The stored message a reply answers: where it is on the server.
    public struct Answering: Sendable, Equatable {
        public var folder: String
        public var uid: UInt32
        public var uidValidity: UInt32

        public init(folder: String, uid: UInt32, uidValidity: UInt32) {
            self.folder = folder
            self.uid = uid
            self.uidValidity = uidValidity
        }
    }

    /// Sends `message` (RFC 5322, CRLF line ends) to `recipients`. Blocks: call it through `MailThread.run`.
    public static func send(_ message: [UInt8], recipients: [String], settings: MailAccountSettings, answering: Answering? = nil,
                            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws(MailboxError) -> Outcome {
        guard let server = settings.smtp else {
            throw .invalidInput("\(settings.email) has no submission server: add one with `parley mail account smtp --smtp HOST[:PORT]`")
        }
        let smtp = try SMTPSession(server: server, group: group)
        try smtp.login(username: settings.username, password: settings.password)
        try smtp.send(from: settings.email, to: recipients, message: message)
        smtp.quit()
        do throws(MailboxError) {
            return try afterSending(message, settings: settings, answering: answering, group: group)
        } catch {
            return Outcome(sentFolder: nil, copyProblem: "\(error)")
        }
    }

    /// The copy in Sent, then \\Answered on the message answered (when its folder still has the same UIDVALIDITY).
    static func afterSending(_ message: [UInt8], settings: MailAccountSettings, answering: Answering?,
                             group: any EventLoopGroup) throws(MailboxError) -> Outcome {
        let imap = try IMAPSession(server: settings.imap, group: group)
        defer { imap.logout() }
        try imap.login(username: settings.username, password: settings.password)
        var outcome = Outcome(sentFolder: try keepCopy(message, imap: imap))
        if let answering, try imap.select(answering.folder).uidValidity == answering.uidValidity {
            try imap.add(.answered, to: [answering.uid])
            outcome.markedAnswered = true
        }
        return outcome
    }

    /// APPENDs to the folder named Sent (or "Sent Messages", "Sent Items"), creating "Sent" when there is none.
    static func keepCopy(_ message: [UInt8], imap: IMAPSession) throws(MailboxError) -> String {
        let folders = try imap.folders()
        let names = ["sent", "sent messages", "sent items", "sent mail"]
        let folder = folders.first { names.contains(($0.split(separator: "/").last.map(String.init) ?? $0).lowercased()) }
            ?? folders.first { names.contains(($0.split(separator: ".").last.map(String.init) ?? $0).lowercased()) }
        let target = folder ?? "Sent"
        if folder == nil { try imap.create(target) }
        try imap.append(message, to: target)
        return target
    }
}
