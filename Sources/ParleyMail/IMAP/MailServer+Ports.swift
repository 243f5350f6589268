extension MailServer {
    /// An IMAP server, `HOST[:PORT]`: port 993 with TLS, 143 with STARTTLS when none is given.
    public init(imap text: String, security: Security) throws(MailboxError) {
        try self.init(parsing: text, security: security, defaultPort: security == .tls ? 993 : 143)
    }

    /// A submission (SMTP) server, `HOST[:PORT]`. Without a `security`, STARTTLS on port 587, except that port
    /// 465 means TLS (RFC 8314 §3.3); with TLS and no port, 465.
    public init(submission text: String, security: Security?) throws(MailboxError) {
        try self.init(parsing: text, security: security ?? .starttls, defaultPort: security == .tls ? 465 : 587)
        if security == nil, port == 465 { self.security = .tls }
    }
}
