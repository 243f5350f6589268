/// An error the server reports in `{"ok": false, "error": {"code", "message"}}`.
///
/// Codes are stable API (docs/API.md); messages are for people and never contain secrets.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable machine-readable error codes.
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// The line is not valid UTF-8 JSON.
        case malformedJSON = "malformed_json"
        /// The JSON is valid but not a request object (no `type`, no `request_id`, not an object).
        case invalidRequest = "invalid_request"
        /// The `type` names no method this server has.
        case unknownMethod = "unknown_method"
        /// A required field is absent.
        case missingField = "missing_field"
        /// A field has the wrong JSON type or an impossible value.
        case invalidField = "invalid_field"
        /// The line exceeded the maximum length; the connection is closed.
        case lineTooLong = "line_too_long"
        /// Too many requests; slow down and retry later.
        case rateLimited = "rate_limited"
        /// The method needs a logged-in connection.
        case unauthenticated = "unauthenticated"
        /// Wrong credentials, or locked out.
        case authenticationFailed = "authentication_failed"
        /// The object does not exist or the caller may not see it (the two look the same on purpose).
        case notFound = "not_found"
        /// The caller may see the object but not change it this way.
        case forbidden = "forbidden"
        /// The request conflicts with the current state (for example the name is taken).
        case conflict = "conflict"
        /// The server must first see a proof of work.
        case proofOfWorkRequired = "proof_of_work_required"
        /// A quota or size limit was reached.
        case quotaExceeded = "quota_exceeded"
        /// The server failed; the request may be retried.
        case `internal` = "internal"
        /// The envelopes do not match the current devices of the conversation; `details` lists them.
        case staleDevices = "stale_devices"
        /// The server is shutting down; reconnect and retry.
        case unavailable = "unavailable"
        /// The client speaks another protocol version than the server (`hello`); the message names both.
        case unsupportedProtocol = "unsupported_protocol"
    }

    /// The machine-readable code.
    public let code: Code
    /// A human-readable explanation that says what to do.
    public let message: String
    /// Machine-readable specifics (for example a proof-of-work challenge); empty for most errors.
    public let details: [String: JSONValue]

    /// Creates an error.
    public init(_ code: Code, _ message: String, details: [String: JSONValue] = [:]) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A required field is absent.
    public static func missing(_ field: String) -> WireError {
        WireError(.missingField, "field '\(field)' is required")
    }

    /// A field has the wrong type or value.
    public static func invalid(_ field: String, _ why: String) -> WireError {
        WireError(.invalidField, "field '\(field)' \(why)")
    }
}
