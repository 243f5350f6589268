import NIOCore
import Synchronization

/// The part of a connection other tasks may look at: whether it is busy with a request,
/// logged in, or asked to close. Used by the login timeout and graceful shutdown.
final class ConnectionState: Sendable {
    enum Phase: Sendable { case idle, busy, draining }

    private struct Fields {
        var phase: Phase = .idle
        var loggedIn = false
        /// When the last request ended (or the connection opened).
        var idleSince: NIODeadline
    }

    let channel: any Channel
    private let fields: Mutex<Fields>

    init(channel: any Channel, now: NIODeadline = .now()) {
        self.channel = channel
        fields = Mutex(Fields(idleSince: now))
    }

    var isLoggedIn: Bool { fields.withLock { $0.loggedIn } }

    func markLoggedIn() { fields.withLock { $0.loggedIn = true } }

    /// Marks the start of a request; false when the connection is draining.
    func beginRequest() -> Bool {
        fields.withLock { fields in
            guard fields.phase != .draining else { return false }
            fields.phase = .busy
            return true
        }
    }

    /// Marks the end of a request; closes the channel if a drain was requested meanwhile.
    func endRequest(now: NIODeadline = .now()) {
        let drain = fields.withLock { fields in
            if fields.phase == .draining { return true }
            fields.phase = .idle
            fields.idleSince = now
            return false
        }
        if drain { channel.close(promise: nil) }
    }

    /// The login timeout's periodic check: closes a connection that has not logged in and has had no
    /// request in flight for `timeout`. Only idling counts: a slow `login_finish` on a busy server, or a
    /// new device's pairing requests (which never log in), keep the connection. Returns true once there
    /// is nothing left to check (logged in, closing, or closed now).
    func closeIfIdleWithoutLogin(for timeout: TimeAmount, now: NIODeadline = .now()) -> Bool {
        let verdict = fields.withLock { fields -> (settled: Bool, close: Bool) in
            if fields.loggedIn || fields.phase == .draining { return (true, false) }
            let expired = fields.phase == .idle && now - fields.idleSince >= timeout
            return (expired, expired)
        }
        if verdict.close { channel.close(promise: nil) }
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
