/// What `parley mail account add` records: sealed in the store as one value (docs/MAIL.md §3).
public struct MailAccountSettings: Sendable, Codable, Equatable {
    /// The format version of this value.
    public var v = 1
    public var email: String
    public var imap: MailServer
    /// The submission server (`parley mail send`); nil until one is given.
    public var smtp: MailServer?
    public var username: String
    /// The IMAP password. Sealed at rest; never printed, logged or put in an error.
    public var password: String

    public init(email: String, imap: MailServer, smtp: MailServer? = nil, username: String, password: String) {
        self.email = email
        self.imap = imap
        self.smtp = smtp
        self.username = username
        self.password = password
    }
}
