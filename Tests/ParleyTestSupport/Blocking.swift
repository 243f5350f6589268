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

    /// Runs `body(0)` … `body(count - 1)` at the same time, each on a thread of its own, and returns when all
    /// have: `DispatchQueue.concurrentPerform` would run them on the threads the cooperative pool shares.
    public static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            Thread { body(index); done.leave() }.start()
        }
        done.wait()
    }
}
