/// Why a verification e-mail could not be handed over. Never contains the password or the code.
public enum SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection, or it broke.
    case unreachable(String)
    /// The server answered a step with an error code.
    case refused(step: String, code: Int, text: String)
    /// The server's answer was not SMTP.
    case protocolViolation(String)
    /// The server did not answer in time.
    case timeout(String)
    /// The configuration or an address cannot be used safely.
    case invalid(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "cannot reach the mail server: \(why)"
        case .refused(let step, let code, let text): "the mail server refused \(step): \(code) \(text)"
        case .protocolViolation(let why): "the mail server's answer is not SMTP: \(why)"
        case .timeout(let step): "the mail server did not answer \(step) in time"
        case .invalid(let why): why
        }
    }
}
