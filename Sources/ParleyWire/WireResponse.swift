/// What the server writes: a response to one request, or a notification.
public enum WireMessage: Sendable, Equatable {
    /// `{"type": "response", "request_id", "ok": true, ...fields}`.
    case success(requestID: String, fields: [String: JSONValue])
    /// `{"type": "response", "request_id", "ok": false, "error": {"code", "message"}}`; the id is
    /// null when the request's own id could not be read.
    case failure(requestID: String?, error: WireError)
    /// `{"type": "notification", "event": NAME, ...fields}`.
    case notification(event: String, fields: [String: JSONValue])

    /// The JSON object for this message.
    public var json: JSONValue {
        switch self {
        case .success(let requestID, let fields):
            var object = fields
            object["type"] = "response"
            object["request_id"] = .string(requestID)
            object["ok"] = true
            return .object(object)
        case .failure(let requestID, let error):
            var body: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
            if !error.details.isEmpty { body["details"] = .object(error.details) }
            return .object([
                "type": "response",
                "request_id": requestID.map(JSONValue.string) ?? .null,
                "ok": false,
                "error": .object(body),
            ])
        case .notification(let event, let fields):
            var object = fields
            object["type"] = "notification"
            object["event"] = .string(event)
            return .object(object)
        }
    }

    /// The message as one line, newline included.
    public func encodedLine() throws -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        try JSONWriter.write(json, into: &line)
        line.append(0x0A)
        return line
    }

    /// Reads a server line (the client side of the transport); a line of more than `maximumValues` JSON values is
    /// refused like one that is not JSON (`JSONParser`).
    public static func parse<C: Collection<UInt8>>(line: C, maximumValues: Int = .max) throws(WireError) -> WireMessage {
        guard case .object(var object)? = try? JSONParser.parse(line, maximumValues: maximumValues).value else {
            throw WireError(.malformedJSON, "the server sent a line that is not a JSON object")
        }
        switch object.removeValue(forKey: "type") {
        case .string("notification")?:
            guard case .string(let event)? = object.removeValue(forKey: "event") else {
                throw WireError(.invalidRequest, "notification without an event name")
            }
            return .notification(event: event, fields: object)
        case .string("response")?:
            let requestID: String? = if case .string(let id)? = object.removeValue(forKey: "request_id") { id } else { nil }
            guard case .bool(let ok)? = object.removeValue(forKey: "ok") else {
                throw WireError(.invalidRequest, "response without 'ok'")
            }
            if ok, let requestID { return .success(requestID: requestID, fields: object) }
            guard case .object(let error)? = object["error"], case .string(let code)? = error["code"],
                case .string(let message)? = error["message"]
            else { throw WireError(.invalidRequest, "failed response without a readable error") }
            let details: [String: JSONValue] = if case .object(let details)? = error["details"] { details } else { [:] }
            return .failure(requestID: requestID, error: WireError(WireError.Code(rawValue: code) ?? .internal, message, details: details))
        default:
            throw WireError(.invalidRequest, "line is neither a response nor a notification")
        }
    }
}
