import Dispatch

/// Raised by the bridge whenever the server sends bytes: what `IDLE` waits on, since libetpan's own idle wait
/// needs a stream driver that supports it and Parley's streams are plain sockets to the bridge.
final class ActivitySignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    func raise() { semaphore.signal() }

    /// Forgets what was raised so far.
    func reset() {
        while semaphore.wait(timeout: .now()) == .success {}
    }

    /// Whether the server sent something within `seconds`.
    func wait(seconds: Int) -> Bool {
        semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
    }
}
