/// One request line: `{"type": METHOD, "request_id": STRING, ...fields}`.
///
/// Parsing checks only the envelope; the method's typed request (ParleyWire/API) reads the fields, throwing
/// `missing_field` / `invalid_field` naming the field.
public struct WireRequest: Sendable, Equatable {
    /// The longest `request_id` accepted.
    public static let maximumRequestIDLength = 128
    /// The most JSON values one request may hold (`JSONParser`): the largest request, a message for 1,024 devices,
    /// holds about 4,100, while a 1 MiB line of `[0,0,…]` would be half a million values, 8–12 MiB once parsed.
    public static let maximumValues = 1 << 16

    /// The method name.
    public let method: String
    /// The client's id for matching the response.
    public let requestID: String
    /// Every field of the object, including `type` and `request_id`.
    public let fields: [String: JSONValue]

    /// The request's fields, for reading them with limits (a method's typed request reads itself from these).
    public var body: WireFields { WireFields(fields) }

    /// Creates a request from its parts (clients build requests this way).
    public init(method: String, requestID: String, fields: [String: JSONValue] = [:]) {
        self.method = method
        self.requestID = requestID
        var all = fields
        all["type"] = .string(method)
        all["request_id"] = .string(requestID)
        self.fields = all
    }

    /// Parses one line. On failure the error carries the request id when one could be read,
    /// so the response can still be matched.
    public static func parse<C: Collection<UInt8>>(line: C) -> Result<WireRequest, RequestParseError> {
        let value: JSONValue, containsNUL: Bool
        do {
            (value, containsNUL) = try JSONParser.parse(line, maximumValues: maximumValues)
        } catch where error.isOverValueBudget {
            return .failure(RequestParseError(requestID: nil, error: WireError(
                .invalidRequest, "a request may hold at most \(maximumValues) JSON values")))
        } catch {
            return .failure(RequestParseError(requestID: nil, error: WireError(.malformedJSON, "the line is not valid JSON")))
        }
        guard case .object(let fields) = value else {
            return .failure(RequestParseError(requestID: nil, error: WireError(.invalidRequest, "a request must be a JSON object")))
        }
        var requestID: String?
        if case .string(let id)? = fields["request_id"], !id.isEmpty, id.utf8.count <= maximumRequestIDLength {
            requestID = id
        }
        guard let requestID else {
            return .failure(RequestParseError(requestID: nil, error: WireError(
                .invalidRequest, "'request_id' must be a string of 1–\(maximumRequestIDLength) bytes")))
        }
        guard case .string(let method)? = fields["type"], !method.isEmpty else {
            return .failure(RequestParseError(requestID: requestID, error: WireError(.invalidRequest, "'type' must name a method")))
        }
        // NUL can only arrive escaped (\u0000). No text field has a use for it, PostgreSQL refuses it and SQLite
        // cuts strings at it, so it is refused here, once, before any handler or store sees it.
        if containsNUL {
            return .failure(RequestParseError(requestID: requestID, error: WireError(
                .invalidRequest, "strings must not contain the NUL character (\\u0000)")))
        }
        return .success(WireRequest(method: method, requestID: requestID, fields: fields))
    }

    /// Encodes the request as one line (without the newline).
    public func encodedLine() throws -> [UInt8] {
        try JSONWriter.bytes(.object(fields))
    }
}

/// A request line that could not be parsed, with the request id if it was readable.
public struct RequestParseError: Error, Sendable, Equatable {
    /// The request id, when the envelope had a usable one.
    public let requestID: String?
    /// What was wrong.
    public let error: WireError
}
