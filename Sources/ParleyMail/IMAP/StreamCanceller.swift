import CParleyMail
import Synchronization

/// Ends libetpan's waiting on its stream from another thread (libetpan's own cancel pipe), so every read
/// after it fails at once.
///
/// The bridge uses this instead of closing libetpan's side: libetpan 1.9.4 reads a literal in a loop that
/// treats end-of-stream as "no bytes yet" and spins forever, so a server that hangs up mid-message must be
/// turned into a read *error*. The stream is detached under the lock before libetpan frees it — and libetpan frees
/// it not only in `mailimap_free`/`mailsmtp_free` but inside `mailsmtp_quit`, `mailimap_logout` and a refused
/// greeting (`mailsmtp_connect`, `mailimap_connect`), so those calls go through `handOver` and `connect`:
/// a cancel arriving on the event loop after libetpan closed the stream must not touch freed memory.
final class StreamCanceller: Sendable {
    private struct Stream: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<mailstream>
    }

    private let stream = Mutex<Stream?>(nil)
    private let cancelled = Mutex(false)

    func attach(_ pointer: UnsafeMutablePointer<mailstream>) {
        stream.withLock { $0 = Stream(pointer: pointer) }
        if cancelled.withLock({ $0 }) { cancel() }
    }

    func detach() {
        stream.withLock { $0 = nil }
    }

    /// Whether a stream is attached (tests).
    var isAttached: Bool { stream.withLock { $0 != nil } }

    /// Runs a libetpan call that may close (free) the stream, detached from it first.
    func handOver<T>(_ call: () -> T) -> T {
        detach()
        return call()
    }

    /// Runs a libetpan connect, which closes the stream when it refuses the greeting: attached meanwhile (a server
    /// that hangs up mid-greeting must fail the read at once, not after the read timeout), and detached the moment a
    /// refusal returns. A cancel in the microseconds between libetpan's close and that detach would still reach freed
    /// memory; the bridge sends its cancel only after a drain delay, so it cannot land there in practice.
    func connect(_ call: () -> Int32, succeeded: (Int32) -> Bool) -> Int32 {
        let code = call()
        if !succeeded(code) { detach() }
        return code
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        stream.withLock { stream in
            if let stream { mailstream_cancel(stream.pointer) }
        }
    }
}
