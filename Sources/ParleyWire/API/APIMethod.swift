/// One method of the client/server API (docs/API.md): its name on the wire, whether it needs a logged-in
/// connection, and the typed request and response both sides use, so neither re-types a method or field name.
public protocol APIMethod: Sendable {
    /// The request's body.
    associatedtype Request: WireBody
    /// A successful response's body.
    associatedtype Response: WireBody
    /// The method's name on the wire (`type`).
    static var name: String { get }
    /// Whether the method needs a logged-in connection.
    static var requiresLogin: Bool { get }
}

/// The namespace of every method and event of the API, one file per area in ParleyWire/API.
public enum API {}
