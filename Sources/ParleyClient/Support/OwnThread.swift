import Foundation

/// Runs work that blocks or computes for long — scrypt, a pipe that waits for its reader — on a thread of its own.
///
/// Swift's cooperative pool has one thread per core, and every other task of the process (a connection's reads,
/// the autolock, an app's interface) runs on those threads: a 32 MiB scrypt or a blocked `write` on one of them
/// stalls all of that. The thread ends with the work.
enum OwnThread {
    /// Runs `work` on a new thread and returns its result (or its error) to the waiting task.
    static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome: Result<Value, Failure> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { () throws(Failure) -> Value in try work() }) }.start()
        }
        return try outcome.get()
    }
}
