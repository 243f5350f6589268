/// What a stranger may make the server hold before logging in, and what all connections together may hold
/// (docs/OPERATIONS.md §6, "Memory budget"). The defaults keep a 2 GiB machine safe: one source address
/// cannot make the server hold more than about 40 MiB, and all connections together not more than the
/// partial-line budget plus about 2 GiB of idle connections' fixed cost.
public struct ConnectionLimits: Sendable, Equatable {
    /// Connections open at once, logged in or not (`--max-connections`).
    public var maximumConnections = 4_096
    /// Connections open at once from one source address (`--max-connections-per-address`).
    public var maximumConnectionsPerAddress = 64
    /// Connections not (yet) logged in, from all addresses together (`--max-unauthenticated`).
    public var maximumUnauthenticatedConnections = 512
    /// Connections of devices being paired (they never log in), from all addresses (`--max-pairing`).
    public var maximumPairingConnections = 64
    /// Connections of devices being paired from one source address.
    public var maximumPairingConnectionsPerAddress = 4
    /// Seconds a pairing device's connection may stay open without logging in (`--pairing-timeout`).
    public var pairingTimeoutSeconds: Int64 = 15 * 60
    /// Bytes all connections together may hold of lines not yet finished (`--partial-line-budget`).
    public var partialLineBudget = 256 << 20
    /// The longest request line before login (`--max-line-before-login`); `register` needs about 90 KiB at most.
    public var maximumLineLengthBeforeLogin = 128 << 10
    /// The longest envelope pushed in a `new_message` notification, in bytes (`--push-limit`, docs/API.md §6.1);
    /// longer ones are a hint to fetch. 0 pushes none. Each connection may have at most 32 KiB of pushes waiting.
    public var pushedEnvelopeLimit = 4 << 10

    /// The documented defaults.
    public init() {}
}
