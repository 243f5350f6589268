/// Where and how the server hands verification e-mails to a mail server.
public struct SMTPConfiguration: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain TCP (only for a relay on the same host or a trusted network).
        case none
        /// Plain TCP upgraded with STARTTLS before anything else is said (port 587).
        case startTLS = "starttls"
        /// TLS from the first byte (port 465).
        case tls
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// The envelope and header sender, e.g. `parley@example.org`.
    public var from: String
    /// Login for AUTH PLAIN, sent only over TLS.
    public var username: String?
    public var password: String?
    /// PEM CA certificates to trust instead of the system's (a private mail server).
    public var trustedCertificatesFile: String?
    /// The name this server gives in EHLO.
    public var heloName: String
    /// Seconds to wait for each reply.
    public var timeoutSeconds: Int64

    /// A configuration; `security` defaults to STARTTLS, the submission standard.
    public init(
        host: String, port: Int, security: Security = .startTLS, from: String, username: String? = nil, password: String? = nil,
        trustedCertificatesFile: String? = nil, heloName: String = "parley.localhost", timeoutSeconds: Int64 = 30
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.from = from
        self.username = username
        self.password = password
        self.trustedCertificatesFile = trustedCertificatesFile
        self.heloName = heloName
        self.timeoutSeconds = timeoutSeconds
    }
}

extension SMTPConfiguration: CustomStringConvertible {
    /// Names the server, never the password.
    public var description: String {
        "smtp://\(username.map { "\($0)@" } ?? "")\(host):\(port) (\(security.rawValue))"
    }
}
