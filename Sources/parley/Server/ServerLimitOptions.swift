import ArgumentParser
import ParleyServer

/// `parley server`'s memory budget: what strangers and all connections together may make the server hold
/// (docs/OPERATIONS.md §6). The defaults hold on a 2 GiB machine.
struct ServerLimitOptions: ParsableArguments {
    private static let defaults = ConnectionLimits()

    @Option(help: "Connections open at once, logged in or not.")
    var maxConnections = defaults.maximumConnections

    @Option(help: "Connections open at once from one source address.")
    var maxConnectionsPerAddress = defaults.maximumConnectionsPerAddress

    @Option(help: "Connections not logged in, from all addresses together.")
    var maxUnauthenticated = defaults.maximumUnauthenticatedConnections

    @Option(help: "Connections of new devices being paired (they never log in), from all addresses together.")
    var maxPairing = defaults.maximumPairingConnections

    @Option(help: "Connections of new devices being paired from one source address.")
    var maxPairingPerAddress = defaults.maximumPairingConnectionsPerAddress

    @Option(help: "Seconds a pairing device's connection may stay open without logging in (60–3600).")
    var pairingTimeout = defaults.pairingTimeoutSeconds

    @Option(help: ArgumentHelp(
        "Bytes of unfinished request lines all connections together may hold.",
        discussion: "Once spent, a connection whose line would need more is answered line_too_long and closed."))
    var partialLineBudget = defaults.partialLineBudget

    @Option(help: "Longest request line in bytes before login (--max-line applies after).")
    var maxLineBeforeLogin = defaults.maximumLineLengthBeforeLogin

    @Option(help: ArgumentHelp(
        "Longest message envelope in bytes sent inside its new_message notification (0–16384; 0: none).",
        discussion: "Devices that ask get a short message without a fetch; longer ones are fetched as before."))
    var pushLimit = defaults.pushedEnvelopeLimit

    func validate() throws {
        for (flag, value) in [
            ("--max-connections", maxConnections), ("--max-connections-per-address", maxConnectionsPerAddress),
            ("--max-unauthenticated", maxUnauthenticated), ("--max-pairing", maxPairing),
            ("--max-pairing-per-address", maxPairingPerAddress),
        ] where value < 1 {
            throw ValidationError("\(flag) must be at least 1")
        }
        guard (60...3600).contains(pairingTimeout) else { throw ValidationError("--pairing-timeout must be 60–3600 seconds") }
        guard partialLineBudget >= 1 << 20 else { throw ValidationError("--partial-line-budget must be at least 1048576 bytes (1 MiB)") }
        guard maxLineBeforeLogin >= 16 << 10 else { throw ValidationError("--max-line-before-login must be at least 16384 bytes") }
        guard (0...16 << 10).contains(pushLimit) else { throw ValidationError("--push-limit must be 0–16384 bytes") }
    }

    /// The limits these flags describe.
    var limits: ConnectionLimits {
        var limits = ConnectionLimits()
        limits.maximumConnections = maxConnections
        limits.maximumConnectionsPerAddress = maxConnectionsPerAddress
        limits.maximumUnauthenticatedConnections = maxUnauthenticated
        limits.maximumPairingConnections = maxPairing
        limits.maximumPairingConnectionsPerAddress = maxPairingPerAddress
        limits.pairingTimeoutSeconds = pairingTimeout
        limits.partialLineBudget = partialLineBudget
        limits.maximumLineLengthBeforeLogin = maxLineBeforeLogin
        limits.pushedEnvelopeLimit = pushLimit
        return limits
    }
}
