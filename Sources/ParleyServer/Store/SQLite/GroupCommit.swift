import Dispatch
import GRDB
import Synchronization

/// Group commit: concurrent writes wait together and are committed in one transaction.
///
/// With `synchronous = FULL` every commit costs a disk flush; one flush per acknowledged message
/// caps the server at the disk's flush rate. Here the first writer starts a flush and every writer
/// that arrives while it runs joins the next one, so under load many messages share one flush and
/// each is still acknowledged only after its commit. One failing write (a conflict) is rolled back
/// alone and the others still commit (`commitTogether`).
///
/// The flushes run on a serial queue of their own and write synchronously: as a Swift task the flush
/// loop waited behind every connection's task on the two-thread cooperative pool, and GRDB's async
/// write added two more hops, which together made the p50 latency step to ~40 ms at 2,000 msg/s.
/// While writes arrive together, commits are paced (`CommitPacing`) so that each holds more of them.
final class GroupCommit: Sendable {
    private struct Item: Sendable {
        let work: @Sendable (Database) throws -> any Sendable
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    private let pool: DatabasePool
    private let state = Mutex<(items: [Item], flushing: Bool)>(([], false))
    private let flusher = DispatchQueue(label: "parley.sqlite.group-commit", qos: .userInitiated)
    /// Touched only by `flush`, on `flusher`.
    private let pacing = Mutex(CommitPacing())

    init(pool: DatabasePool) {
        self.pool = pool
    }

    /// Runs `work` inside the next group transaction and returns its result after the commit.
    func run<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            let startFlushing = state.withLock { state -> Bool in
                state.items.append(Item(work: { try work($0) }, continuation: continuation))
                guard !state.flushing else { return false }
                state.flushing = true
                return true
            }
            if startFlushing { flusher.async { self.flush() } }
        }
        guard let typed = value as? T else { preconditionFailure("group commit returned the wrong type") }
        return typed
    }

    private func flush() {
        while true {
            if let wait = pacing.withLock({ $0.pause(at: .now) }) {
                // Still flushing: writes that arrive meanwhile only join the batch, and this picks them up.
                flusher.asyncAfter(deadline: .now() + .nanoseconds(Int(wait / .nanoseconds(1)))) { self.flush() }
                return
            }
            let batch = state.withLock { state -> [Item] in
                defer { state.items = [] }
                if state.items.isEmpty { state.flushing = false }
                return state.items
            }
            guard !batch.isEmpty else { return }
            let started = ContinuousClock.now
            pacing.withLock { $0.started(at: started, count: batch.count) }
            defer { ServerMetrics.groupCommit(writes: batch.count, duration: ContinuousClock.now - started) }
            let results = batch.count == 1 ? [commitAlone(batch[0])] : commitTogether(batch)
            for (item, result) in zip(batch, results) { item.continuation.resume(with: result) }
        }
    }

    /// Commits the writes of `batch` in one transaction, each write's result in its place. Writes almost never fail
    /// (a refusal is a result, not an error), so they first run one after another with nothing between them; only if
    /// one fails is that transaction rolled back and the batch run again with each write in a savepoint of its own,
    /// so the failing one is undone alone. A savepoint for every write cost two statements and a copy of every page
    /// it touched, for a rollback that does not come (docs/PERFORMANCE.md, "A commit without savepoints").
    private func commitTogether(_ batch: [Item]) -> [Result<any Sendable, any Error>] {
        if let values = try? pool.write({ db in try batch.map { try $0.work(db) } }) {
            return values.map { .success($0) }
        }
        do {
            return try pool.write { db -> [Result<any Sendable, any Error>] in
                batch.map { item in
                    var result: Result<any Sendable, any Error> = .failure(StoreError.unavailable("not run"))
                    do {
                        try db.inSavepoint {
                            result = .success(try item.work(db))
                            return .commit
                        }
                    } catch {
                        result = .failure(error)
                    }
                    return result
                }
            }
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }

    /// A batch of one write needs no savepoint: the transaction is its own, and if the write fails, rolling the
    /// transaction back undoes exactly what a savepoint would have (at 1,000 msg/s most batches hold one message,
    /// and the savepoint's two statements were a tenth of the flush's time; docs/PERFORMANCE.md).
    private func commitAlone(_ item: Item) -> Result<any Sendable, any Error> {
        Result { try pool.write { db in try item.work(db) } }
    }

}
