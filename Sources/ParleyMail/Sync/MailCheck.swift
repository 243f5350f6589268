import NIOCore
import NIOPosix

/// Tries an account's settings before they are stored: connect, verify TLS, log in, list folders; and the
/// same login at the submission server when there is one.
public enum MailCheck {
    /// The number of folders the account can select. Blocks: call it through `MailThread.run`.
    public static func login(_ settings: MailAccountSettings, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws(MailboxError) -> Int {
        let session = try IMAPSession(server: settings.imap, group: group)
        defer { session.logout() }
        try session.login(username: settings.username, password: settings.password)
        let folders = try session.folders().count
        if let server = settings.smtp {
            let smtp = try SMTPSession(server: server, group: group)
            try smtp.login(username: settings.username, password: settings.password)
            smtp.quit()
        }
        return folders
    }
}
