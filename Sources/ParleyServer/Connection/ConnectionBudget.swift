import Synchronization

/// Counts the connections open, per source address and by what they are doing, and refuses those over
/// the operator's `ConnectionLimits`. Every refusal is counted in `parley_refusals_total`.
final class ConnectionBudget: Sendable {
    /// What a connection is allowed, which decides which limits it counts against.
    enum Seat: Sendable, Equatable {
        /// Accepted, not logged in: the login deadline applies.
        case stranger
        /// A new device pairing (it never logs in): the longer pairing deadline applies.
        case pairing
        /// Logged in.
        case member
    }

    /// Why a connection or a pairing was refused; the raw value is the metrics label.
    enum Refusal: String, Sendable, Equatable {
        case connections, connectionsPerAddress = "connections_per_address"
        case unauthenticated = "unauthenticated_connections"
        case pairing = "pairing_connections", pairingPerAddress = "pairing_connections_per_address"

        /// What the refused client is told.
        var message: String {
            switch self {
            case .connections, .unauthenticated: "the server has too many connections right now; try again in a minute"
            case .connectionsPerAddress: "too many connections from your address; close some and try again"
            case .pairing: "too many devices are being paired right now; try again in a minute"
            case .pairingPerAddress: "too many devices are being paired from your address; finish one first"
            }
        }
    }

    private struct Counts {
        var total = 0
        /// The most open at once, and the connections that arrived (admitted or refused), since `restartActivity()`.
        var peak = 0
        var arrivals = 0
        var strangers = 0
        var pairing = 0
        var perAddress: [String: Int] = [:]
        var pairingPerAddress: [String: Int] = [:]
    }

    let limits: ConnectionLimits
    private let counts = Mutex(Counts())

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    /// Admits a new connection from `address` as a stranger, or says why not.
    func admit(address: String) -> Refusal? {
        let refusal = counts.withLock { counts -> Refusal? in
            counts.arrivals += 1
            if counts.total >= limits.maximumConnections { return .connections }
            if counts.perAddress[address, default: 0] >= limits.maximumConnectionsPerAddress { return .connectionsPerAddress }
            if counts.strangers >= limits.maximumUnauthenticatedConnections { return .unauthenticated }
            counts.total += 1
            counts.peak = max(counts.peak, counts.total)
            counts.strangers += 1
            counts.perAddress[address, default: 0] += 1
            return nil
        }
        if let refusal { ServerMetrics.refused(refusal.rawValue) }
        return refusal
    }

    /// Moves a connection from `old` to `new`, or says why not (only pairing is limited; logging in always moves).
    func move(address: String, from old: Seat, to new: Seat) -> Refusal? {
        guard old != new else { return nil }
        let refusal = counts.withLock { counts -> Refusal? in
            if new == .pairing {
                if counts.pairing >= limits.maximumPairingConnections { return .pairing }
                if counts.pairingPerAddress[address, default: 0] >= limits.maximumPairingConnectionsPerAddress { return .pairingPerAddress }
            }
            Self.leave(old, address: address, &counts)
            Self.enter(new, address: address, &counts)
            return nil
        }
        if let refusal { ServerMetrics.refused(refusal.rawValue) }
        return refusal
    }

    /// Forgets a connection that closed while in `seat`.
    func release(address: String, seat: Seat) {
        counts.withLock { counts in
            Self.leave(seat, address: address, &counts)
            counts.total -= 1
            let left = counts.perAddress[address, default: 1] - 1
            counts.perAddress[address] = left > 0 ? left : nil
        }
    }

    /// Connections open now.
    var openConnections: Int { counts.withLock { $0.total } }

    /// Connections that arrived since `restartActivity()` (admitted or refused), the most open at once
    /// meanwhile, and those open now.
    var activity: MemoryReturn.Activity {
        counts.withLock { MemoryReturn.Activity(arrivals: $0.arrivals, peak: $0.peak, open: $0.total) }
    }

    /// Starts counting arrivals and the peak afresh from now (after memory was trimmed).
    func restartActivity() {
        counts.withLock { counts in
            counts.peak = counts.total
            counts.arrivals = 0
        }
    }

    private static func enter(_ seat: Seat, address: String, _ counts: inout Counts) {
        switch seat {
        case .stranger: counts.strangers += 1
        case .pairing:
            counts.pairing += 1
            counts.pairingPerAddress[address, default: 0] += 1
        case .member: break
        }
    }

    private static func leave(_ seat: Seat, address: String, _ counts: inout Counts) {
        switch seat {
        case .stranger: counts.strangers -= 1
        case .pairing:
            counts.pairing -= 1
            let left = counts.pairingPerAddress[address, default: 1] - 1
            counts.pairingPerAddress[address] = left > 0 ? left : nil
        case .member: break
        }
    }
}
