import CParleyMail
import Synchronization

/// Ends libetpan's waiting on its stream from another thread (libetpan's own cancel pipe), so every read
/// after it fails at once.
///
/// The bridge uses this instead of closing libetpan's side: libetpan 1.9.4 reads a literal in a loop that
/// treats end-of-stream as "no bytes yet" and spins forever, so a server that hangs up mid-message must be
/// turned into a read *error*. The stream is detached under the lock before libetpan frees it.
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

    func cancel() {
        cancelled.withLock { $0 = true }
        stream.withLock { stream in
            if let stream { mailstream_cancel(stream.pointer) }
        }
    }
}
