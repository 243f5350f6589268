import Dispatch
import Synchronization

/// Runs `body(0)`, `body(1)` … `body(count - 1)` at the same time on Dispatch's threads (this one
/// included), and returns when all are done; the first error thrown is rethrown.
///
/// For independent passes over large buffers — the MDC's SHA-1 beside the AES-CFB pass of SEIPD, and
/// pieces of CFB decryption — which on a machine with a free core then take the time of the slowest
/// pass instead of their sum. When no other thread is free, Dispatch runs them here one after another.
/// The passes must not touch the same state. With `serially` (work too small to be worth waking a
/// thread) they simply run here in order.
func inParallel(_ count: Int, serially: Bool = false, _ body: (Int) throws -> Void) throws {
    guard count > 1, !serially else {
        for index in 0..<count { try body(index) }
        return
    }
    try withoutActuallyEscaping(body) { body in
        // Dispatch wants a @Sendable closure. `body` is not Sendable, but each index runs on exactly one
        // thread, the passes share no state (the caller's promise), and all end before this call returns.
        nonisolated(unsafe) let body = body
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do {
                try body(index)
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
