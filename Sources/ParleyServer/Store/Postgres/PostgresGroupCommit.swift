import Logging
import PostgresNIO
import Synchronization

/// Group commit on PostgreSQL: sends and delivery confirmations that arrive while a transaction of them is running
/// wait, and are then run together in one transaction on one connection, each acknowledged only after its commit.
///
/// Every commit costs PostgreSQL a WAL flush and a transaction's bookkeeping, and a message took two (its send and
/// its confirmation): about a fifth of the send's own cost each (docs/PERFORMANCE.md). Writes that arrive together
/// now share one. One transaction runs at a time per node; it locks the clock rows of all its sends first, in account
/// id order, so that two nodes' batches (or a batch and a lone send) wait for each other instead of deadlocking.
///
/// Writes almost never fail (a refusal is a result, not an error): if anything in a batch fails, or its commit does,
/// the batch is rolled back and every write in it runs again alone, autocommitted with its own retries, as it did
/// before batching — a write is never answered from a transaction that did not commit. (After a commit whose answer
/// was lost the writes run again: a send finds itself stored by its client id; a confirmation finds nothing left.)
final class PostgresGroupCommit: Sendable {
    /// One write: its work inside a batch's transaction, and the same work alone.
    struct Write: Sendable {
        /// The clock rows the work locks (a send's accounts; none for a confirmation).
        let accounts: [Int64]
        let together: @Sendable (PostgresConnection, Logger) async throws -> any Sendable
        let alone: @Sendable () async throws -> any Sendable
        let continuation: CheckedContinuation<any Sendable, any Error>
    }

    private let state = Mutex<(writes: [Write], flushing: Bool)>(([], false))
    /// The most writes one transaction has carried (what tests and `parley_group_commit_writes` look at).
    let largestBatch = Atomic<Int>(0)
    /// How many batches failed and had their writes run again alone (a deadlock would show here).
    let batchesRunAgainAlone = Atomic<Int>(0)

    /// Runs `together` in the next group transaction (or `alone`, when it is the only write or the group fails) and
    /// returns its result after the commit.
    func run<T: Sendable>(
        accounts: [Int64], in store: PostgresStore,
        together: @escaping @Sendable (PostgresConnection, Logger) async throws -> T,
        alone: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<any Sendable, any Error>) in
            let write = Write(accounts: accounts, together: { try await together($0, $1) }, alone: { try await alone() }, continuation: continuation)
            let startFlushing = state.withLock { state -> Bool in
                state.writes.append(write)
                guard !state.flushing else { return false }
                state.flushing = true
                return true
            }
            if startFlushing { Task { await self.flush(store) } }
        }
        guard let typed = value as? T else { preconditionFailure("group commit returned the wrong type") }
        return typed
    }

    /// Runs batches until no write waits.
    private func flush(_ store: PostgresStore) async {
        while true {
            let batch = state.withLock { state -> [Write] in
                defer { state.writes = [] }
                if state.writes.isEmpty { state.flushing = false }
                return state.writes
            }
            guard !batch.isEmpty else { return }
            if batch.count == 1 {
                batch[0].continuation.resume(with: await Self.outcome(batch[0].alone))
                continue
            }
            let started = ContinuousClock.now
            largestBatch.max(batch.count, ordering: .relaxed)
            if let results = try? await together(batch, store) {
                ServerMetrics.groupCommit(writes: batch.count, duration: ContinuousClock.now - started)
                for (write, result) in zip(batch, results) { write.continuation.resume(returning: result) }
                continue
            }
            // Each alone, at once: the batch's failure was one write's (a conflict, a lock wait that deadlocked).
            batchesRunAgainAlone.add(1, ordering: .relaxed)
            await withTaskGroup(of: Void.self) { group in
                for write in batch {
                    group.addTask { write.continuation.resume(with: await Self.outcome(write.alone)) }
                }
            }
        }
    }

    /// What `body` returns or throws.
    private static func outcome(_ body: @Sendable () async throws -> any Sendable) async -> Result<any Sendable, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// The batch in one transaction: its clock rows locked in id order, then every write in arrival order.
    private func together(_ batch: [Write], _ store: PostgresStore) async throws -> [any Sendable] {
        let accounts = Array(Set(batch.flatMap(\.accounts))).sorted()
        return try await store.withinCallTimeout("group commit") { [client = store.client, logger = store.logger] in
            try await client.withConnection { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    if !accounts.isEmpty {
                        try await connection.run(
                            "SELECT 1 FROM account_clocks WHERE account_id = ANY(\(accounts)) ORDER BY account_id FOR UPDATE", logger)
                    }
                    var results: [any Sendable] = []
                    for write in batch { results.append(try await write.together(connection, logger)) }
                    try await connection.query("COMMIT", logger: logger)
                    return results
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }
}
