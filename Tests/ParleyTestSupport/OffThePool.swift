import Foundation
import Testing

/// Runs a test, or every test of a suite, on threads of its own instead of Swift's cooperative pool:
/// `@Suite(.offThePool)` for tests that compute for seconds (a memory-hard key derivation, a 64 MiB input).
///
/// The pool has one thread per core and does not grow; two such tests at once would hold both threads of the
/// CI machine and stall every server hosted in the test process (`PoolWatch` reports such stalls). Here the
/// operating system shares the cores between the test's thread and the pool's, so servers keep answering.
/// Work the test starts with `Task {}` still runs on the pool.
public struct OffThePoolTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// See `OffThePoolTrait`.
    public static var offThePool: Self { OffThePoolTrait() }
}

/// A task executor that runs each job on a new thread: a test's job holds that thread, never a pool thread.
final class ThreadPerJobExecutor: TaskExecutor {
    static let shared = ThreadPerJobExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
