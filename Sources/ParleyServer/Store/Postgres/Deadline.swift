import Synchronization

/// Waits for work or a deadline, whichever comes first, and never longer: the work runs in an unstructured task,
/// because a task group would wait for its children even after the deadline — and PostgresNIO's wait for a pooled
/// connection (and its pool's run loop) has been seen to ignore cancellation while the database is gone, which kept
/// store calls, and with them `parley server`'s shutdown, waiting for ever.
enum Deadline {
    /// `work`'s result, or `late()` thrown after `limit` (the work is then cancelled and left to end by itself).
    static func race<T: Sendable>(_ limit: Duration, late: @escaping @Sendable () -> any Error,
                                  _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let first = FirstResult(continuation)
                let timer = Task {
                    do { try await Task.sleep(for: limit) } catch { return }
                    first.resume(with: .failure(late()))
                    task.cancel()
                }
                Task {
                    let result = await task.result
                    timer.cancel()
                    first.resume(with: result)
                }
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Resumes a continuation once, with whichever result comes first.
final class FirstResult<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { pending in
            pending?.resume(with: result)
            pending = nil
        }
    }
}
