/// A request, response or notification body, or an object nested in one: read from the wire with limits and
/// written back as JSON fields. `fieldNames` lists every field the body can carry, an optional one with `?` after
/// its name (`"account_id?"`) — the registry test compares them with docs/API.md's method index.
public protocol WireBody: Sendable, Equatable {
    /// Reads the body, throwing `missing_field` / `invalid_field` naming the first bad field.
    init(from fields: WireFields) throws(WireError)
    /// The body as JSON members (optional fields left out when absent).
    var fields: [String: JSONValue] { get }
    /// Every field this body may carry, optional ones marked with a trailing `?`.
    static var fieldNames: [String] { get }
}

extension WireBody {
    /// The body as one JSON object.
    public var json: JSONValue { .object(fields) }
}

/// A body without fields: a request that needs no arguments, or an answer that is just "ok".
public struct NoFields: WireBody {
    /// The empty body.
    public init() {}
    public init(from fields: WireFields) throws(WireError) {}
    public var fields: [String: JSONValue] { [:] }
    public static let fieldNames: [String] = []
}

extension Dictionary where Key == String, Value == JSONValue {
    /// Sets `name` to `value` only when it is present, so optional fields stay out of the JSON.
    public mutating func set(_ name: String, _ value: JSONValue?) {
        if let value { self[name] = value }
    }
}

extension JSONValue {
    /// An array of bodies as JSON objects.
    public static func list<T: WireBody>(_ items: [T]) -> JSONValue { .array(items.map(\.json)) }
    /// An array of whole numbers.
    public static func ints<I: BinaryInteger>(_ items: [I]) -> JSONValue { .array(items.map { .int($0) }) }
    /// An array of strings.
    public static func strings(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
}
