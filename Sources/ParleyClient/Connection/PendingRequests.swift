import ParleyWire
import Synchronization

/// Requests in flight on one connection, matched to responses by `request_id`.
///
/// When the connection closes every waiter fails with `.disconnected` at once, so nothing waits forever.
final class PendingRequests: Sendable {
    private struct State {
        var waiters: [String: CheckedContinuation<[String: JSONValue], any Error>] = [:]
        var nextID: UInt64 = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// A fresh request id.
    func nextID() -> String {
        state.withLock { state in
            state.nextID += 1
            return String(state.nextID)
        }
    }

    /// Registers a waiter; fails it at once when the connection is already closed.
    func wait(for id: String, _ continuation: CheckedContinuation<[String: JSONValue], any Error>) {
        let closed = state.withLock { state in
            if !state.closed { state.waiters[id] = continuation }
            return state.closed
        }
        if closed { continuation.resume(throwing: ClientError.disconnected) }
    }

    /// Completes the waiter of `id`, if any is still waiting.
    func complete(_ id: String, with result: Result<[String: JSONValue], ClientError>) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume(with: result.mapError { $0 as any Error })
    }

    /// Fails every waiter and refuses new ones.
    func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(throwing: ClientError.disconnected) }
    }

    /// Whether the connection has closed.
    var isClosed: Bool { state.withLock { $0.closed } }
}
