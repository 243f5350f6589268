import NIOCore
import Synchronization

/// The part of a connection other tasks may look at: whether it is busy with a request,
/// logged in, or asked to close. Used by the login timeout and graceful shutdown.
final class ConnectionState: Sendable {
    enum Phase: Sendable { case idle, busy, draining }

    private struct Fields {
        var phase: Phase = .idle
        var loggedIn = false
        var loginDeadlinePassed = false
    }

    let channel: any Channel
    private let fields = Mutex(Fields())

    init(channel: any Channel) {
        self.channel = channel
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

    /// Marks the end of a request; closes the channel if a drain was requested meanwhile, or if the login
    /// deadline passed during a request that did not log in.
    func endRequest() {
        let drain = fields.withLock { fields in
            if fields.phase == .draining || (fields.loginDeadlinePassed && !fields.loggedIn) { return true }
            fields.phase = .idle
            return false
        }
        if drain { channel.close(promise: nil) }
    }

    /// The login timeout fired: close now if idle and not logged in. A request in flight (a slow
    /// `login_finish` on a busy server) is answered first, and the connection stays if it logged in.
    func loginDeadlinePassed() {
        let close = fields.withLock { fields in
            fields.loginDeadlinePassed = true
            return !fields.loggedIn && fields.phase == .idle
        }
        if close { channel.close(promise: nil) }
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
