import Foundation

/// Runs blocking work (waiting for a child process, `initdb`, a blocking read) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core, two on the CI machine. A test that blocks one of them
/// for seconds halves every other test's servers and clients; two such tests stall them all, until login
/// timers fire and unrelated tests fail at once. Blocking work never runs on that pool.
public enum Blocking {
    /// `body`'s result, computed on a dedicated thread.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
