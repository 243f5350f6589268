/// Where a mail server is and how Parley trusts it (docs/MAIL.md §2).
public struct MailServer: Sendable, Codable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted. There is no plaintext mode: a password never crosses the network in the clear.
    public enum Security: String, Sendable, Codable, CaseIterable {
        /// TLS from the first byte (IMAP port 993).
        case tls
        /// Plain TCP upgraded with STARTTLS before anything else is said (IMAP port 143).
        case starttls
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// Base64 SHA-256 of the server's SubjectPublicKeyInfo; when set, it alone decides trust.
    public var pinnedKeySHA256: String?
    /// A PEM file of certificates to trust instead of the system's roots.
    public var trustedCertificatesFile: String?

    public init(host: String, port: Int, security: Security, pinnedKeySHA256: String? = nil, trustedCertificatesFile: String? = nil) {
        self.host = host
        self.port = port
        self.security = security
        self.pinnedKeySHA256 = pinnedKeySHA256
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// Parses `host:port` (or `[v6]:port`); without a port, `defaultPort`.
    public init(parsing text: String, security: Security, defaultPort: Int) throws(MailboxError) {
        var host = text
        var port = defaultPort
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            // Anything after the bracket but a port is a mistake, not something to drop silently.
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { throw .invalidInput("\(text) is not HOST:PORT") }
                port = value
            }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            guard let value = Int(text[text.index(after: colon)...]) else { throw .invalidInput("\(text) is not HOST:PORT") }
            port = value
        }
        guard !host.isEmpty, (1...65535).contains(port) else { throw .invalidInput("\(text) is not HOST:PORT") }
        self.init(host: host, port: port, security: security)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
