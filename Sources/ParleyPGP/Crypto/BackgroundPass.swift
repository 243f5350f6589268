import Dispatch
import Synchronization

/// One job at a time beside the owner's own work, collected later: the owner starts a job, carries on,
/// and takes the result when it needs it.
///
/// For pipelines whose slowest stage is serial — AES-CFB encryption, where every block needs the one
/// before — so that the other stages (reading, framing, hashing, writing) run beside it instead of
/// between its calls. With a second core, a stream then takes about the time of its slowest stage.
///
/// Without one it must not be slower than doing the job in line. A job that no other thread has
/// picked up by the time the owner asks for it is run by the owner itself (each job is claimed once,
/// by whichever thread gets to it first); the owner waits only for a job already under way, and spins
/// briefly before it sleeps, since on a virtual machine waking a sleeping thread can take milliseconds.
///
/// One owner starts and waits; the type is not for sharing between several. The job's result crosses
/// threads through `finished`, which orders everything the job wrote before the owner's reads.
final class BackgroundPass<Output: Sendable>: @unchecked Sendable {
    private let queue = DispatchQueue(label: "parley.pgp.background-pass", qos: .userInitiated)
    private let finished = DispatchSemaphore(value: 0)
    /// The number of the last job claimed; the job numbered one more is still free to claim.
    private let claimed = Atomic<Int>(0)
    /// The number of the last job a background thread finished.
    private let done = Atomic<Int>(0)
    /// Written by a background thread before it signals; read by the owner after it waited.
    private var outcome: Result<Output, any Error>?
    // Touched by the owner only:
    private var started = 0
    private var pending: (@Sendable () throws -> Output)?

    /// Starts `job`; the previous one must have been collected.
    func start(_ job: @escaping @Sendable () throws -> Output) {
        precondition(pending == nil, "BackgroundPass: collect a job before starting the next")
        started += 1
        pending = job
        let number = started
        queue.async {
            guard self.claimed.compareExchange(expected: number - 1, desired: number, ordering: .acquiringAndReleasing).exchanged else {
                return  // the owner took it
            }
            self.outcome = Result { try job() }
            self.done.store(number, ordering: .releasing)
            self.finished.signal()
        }
    }

    /// The result of the job started last (run here if no other thread took it yet), or its error
    /// rethrown; nil when no job is waiting.
    func wait() throws -> Output? {
        guard let job = pending else { return nil }
        pending = nil
        if claimLast() { return try job() }
        return try collect().get()
    }

    /// Gives up the job started last: it does not run if no thread took it yet, and is waited for if
    /// one did (after a failure, before the memory it reads goes).
    func abandon() {
        guard pending != nil else { return }
        pending = nil
        if !claimLast() { _ = collect() }
    }

    /// Claims the job started last for the owner; false when a background thread took it.
    private func claimLast() -> Bool {
        claimed.compareExchange(expected: started - 1, desired: started, ordering: .acquiringAndReleasing).exchanged
    }

    /// Waits for the job a background thread took, and takes its outcome.
    private func collect() -> Result<Output, any Error> {
        var spins = 0
        while done.load(ordering: .acquiring) != started, spins < 20_000 { spins += 1 }
        finished.wait()
        defer { outcome = nil }
        return outcome!
    }
}
