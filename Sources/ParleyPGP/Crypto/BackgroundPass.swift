import Dispatch

/// One job at a time on a thread of its own, collected later: the owner starts a job, carries on with
/// its own work, and waits for the result when it needs it.
///
/// For pipelines whose slowest stage is serial — AES-CFB encryption, where every block needs the one
/// before — so that the other stages (reading, framing, hashing, writing) run beside it instead of
/// between its calls. With a second core, a stream then takes about the time of its slowest stage.
///
/// One owner starts and waits; the type is not for sharing between several. The job's result crosses
/// threads through the semaphore, which orders everything the job wrote before the owner's reads.
final class BackgroundPass<Output: Sendable>: @unchecked Sendable {
    private let queue = DispatchQueue(label: "parley.pgp.background-pass", qos: .userInitiated)
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the job before it signals; read by the owner after it waited.
    private var outcome: Result<Output, any Error>?
    /// Touched by the owner only.
    private(set) var isRunning = false

    /// Starts `job`; the previous one must have been waited for.
    func start(_ job: @escaping @Sendable () throws -> Output) {
        precondition(!isRunning, "BackgroundPass: wait for a job before starting the next")
        isRunning = true
        queue.async {
            self.outcome = Result { try job() }
            self.finished.signal()
        }
    }

    /// Waits for the job started last and returns its result, or rethrows its error; nil when no job runs.
    func wait() throws -> Output? {
        guard isRunning else { return nil }
        finished.wait()
        isRunning = false
        let outcome = self.outcome
        self.outcome = nil
        return try outcome?.get()
    }
}
