/// What went wrong in `parley mail`, in the words a person reading it needs. Never holds a password or mail content.
public enum MailboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value given by the person is not usable.
    case invalidInput(String)
    /// The server could not be reached or the connection broke.
    case connection(String)
    /// The TLS handshake failed or the server's certificate is not trusted.
    case tls(String)
    /// The server answered a command with NO or BAD (its own words, made inert).
    case refused(command: String, reply: String)
    /// The server's username and password were not accepted.
    case loginFailed
    /// The server sent more than the command can need (docs/MAIL.md §2, the byte budget).
    case serverSentTooMuch(limit: Int)
    /// The server's answer could not be parsed.
    case malformedResponse(command: String)
    /// The local store could not be read or written.
    case storage(String)
    /// No such account, folder or message.
    case notFound(String)
    /// A Web Key Directory could not be asked, or its answer was unusable (docs/MAIL.md §6.2).
    case keyLookup(String)

    public var description: String {
        switch self {
        case .invalidInput(let why): why
        case .connection(let why): "cannot talk to the mail server: \(why)"
        case .tls(let why): "the mail server's TLS failed: \(why)"
        case .refused(let command, let reply): "the mail server refused \(command): \(reply)"
        case .loginFailed: "the mail server did not accept the username and password"
        case .serverSentTooMuch(let limit):
            "the mail server sent more than it announced (over \(limit / 1024) KiB for one command); the connection was closed"
        case .malformedResponse(let command): "the mail server's answer to \(command) could not be read"
        case .storage(let why): "the local mail store: \(why)"
        case .notFound(let what): what
        case .keyLookup(let why): "the key lookup failed: \(why)"
        }
    }
}
