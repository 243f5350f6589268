import NIOCore
import Synchronization

/// The part of a connection other tasks may look at: whether it is busy with a request, what it is
/// allowed (its `ConnectionBudget.Seat`), or asked to close. Used by the login deadline and graceful shutdown.
final class ConnectionState: Sendable {
    enum Phase: Sendable { case idle, busy, draining }

    private struct Fields {
        var phase: Phase = .idle
        var seat: ConnectionBudget.Seat = .stranger
    }

    let channel: any Channel
    /// When the connection was accepted: the login deadline counts from here, whatever the client sends.
    let acceptedAt: NIODeadline
    private let fields = Mutex(Fields())

    init(channel: any Channel, now: NIODeadline = .now()) {
        self.channel = channel
        acceptedAt = now
    }

    var isLoggedIn: Bool { seat == .member }

    /// What the connection is allowed now.
    var seat: ConnectionBudget.Seat { fields.withLock { $0.seat } }

    /// Records the connection's new seat (the budget has already agreed).
    func take(_ seat: ConnectionBudget.Seat) { fields.withLock { $0.seat = seat } }

    /// Marks the start of a request; false when the connection is draining.
    func beginRequest() -> Bool {
        fields.withLock { fields in
            guard fields.phase != .draining else { return false }
            fields.phase = .busy
            return true
        }
    }

    /// Marks the end of a request; closes the channel if a drain was requested meanwhile.
    func endRequest() {
        let drain = fields.withLock { fields in
            if fields.phase == .draining { return true }
            fields.phase = .idle
            return false
        }
        if drain { channel.close(promise: nil) }
    }

    /// The login deadline's periodic check: closes a connection that has not logged in within `loginTimeout`
    /// of being accepted (`pairingTimeout` for a pairing device), busy or not: pings and requests do not
    /// extend it. Returns true once there is nothing left to check (logged in, closing, or closed now).
    func closeIfLoginOverdue(loginTimeout: TimeAmount, pairingTimeout: TimeAmount, now: NIODeadline = .now()) -> Bool {
        let verdict = fields.withLock { fields -> (settled: Bool, close: Bool) in
            if fields.seat == .member || fields.phase == .draining { return (true, false) }
            let allowed = fields.seat == .pairing ? pairingTimeout : loginTimeout
            let expired = now - acceptedAt >= allowed
            return (expired, expired)
        }
        if verdict.close {
            ServerMetrics.refused("login_timeout")
            channel.close(promise: nil)
        }
        return verdict.settled
    }

    /// Asks the connection to close once its in-flight request (if any) has been answered.
    func drain() {
        let idle = fields.withLock { fields in
            let wasIdle = fields.phase == .idle
            fields.phase = .draining
            return wasIdle
        }
        if idle { channel.close(promise: nil) }
    }
}
