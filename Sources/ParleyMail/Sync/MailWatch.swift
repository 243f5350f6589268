import NIOCore
import NIOPosix

/// `parley mail watch`: one connection stays in IMAP IDLE on a folder; whenever the server speaks, a sync of that
/// folder runs and the messages it stored are handed to `show`. Blocks until an error: call it through `MailThread.run`.
public struct MailWatch {
    /// How long one IDLE lasts before it is renewed (RFC 2177 asks clients to re-issue within 29 minutes).
    public static let idleSeconds = 25 * 60

    let store: MailStore
    let folder: String
    let group: any EventLoopGroup

    public init(store: MailStore, folder: String = "INBOX", group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.store = store
        self.folder = folder
        self.group = group
    }

    /// Syncs once, then waits and syncs again on every change, calling `show` with what each sync stored.
    public func run(idleSeconds: Int = MailWatch.idleSeconds, show: ([MailListing]) -> Void) throws(MailboxError) -> Never {
        var newest = try store.list(folder: folder, unreadOnly: false, limit: 1).first?.id ?? 0
        let settings = try store.settings()
        let session = try IMAPSession(server: settings.imap, group: group)
        try session.login(username: settings.username, password: settings.password)
        _ = try session.select(folder)
        while true {
            _ = try MailSync(store: store, group: group).run(folder: folder)
            let stored = try store.list(folder: folder, unreadOnly: false, limit: 500).filter { $0.id > newest }
            if let top = stored.map(\.id).max() { newest = top }
            if !stored.isEmpty { show(stored.sorted { $0.id < $1.id }) }
            _ = try session.idle(seconds: idleSeconds)
        }
    }
}
