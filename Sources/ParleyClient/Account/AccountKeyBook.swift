import ParleyClientFormats
import Synchronization

/// This device's account keys — identity and login seeds, ids, server, prekey counters — in one copy that the
/// account's actor and its components share. A change is made one at a time and written to the vault in the same
/// step (with whatever else belongs in that transaction); a change that throws, or whose write fails, changes
/// nothing.
///
/// Two locks, so that reading never waits for the database: `changing` is held for a whole change, the database
/// write included, and serialises changes; `snapshot` is held only to copy the keys in or out, never while waiting
/// for anything. Code inside a database write (the receive path) may read `current`; it must not call `change`,
/// which would wait for the database it holds.
final class AccountKeyBook: Sendable {
    private let snapshot: Mutex<AccountKeys>
    private let changing = Mutex<Void>(())
    private let database: ClientDatabase

    init(_ keys: AccountKeys, database: ClientDatabase) {
        snapshot = Mutex(keys)
        self.database = database
    }

    /// The keys as they are now.
    var current: AccountKeys { snapshot.withLock { $0 } }

    /// Applies `change`, then stores the result together with what `alongside` writes (given the changed keys and
    /// what `change` returned) in one transaction; the keys change only when that commits. Returns what `change`
    /// returns.
    @discardableResult
    func change<T: Sendable>(
        _ change: (inout AccountKeys) throws(ClientError) -> T,
        alongside: (ClientDatabase.Writer, AccountKeys, T) throws -> Void = { _, _, _ in }
    ) throws(ClientError) -> T {
        let database = self.database
        let outcome: Result<T, ClientError> = changing.withLock { _ in
            var changed = self.current
            do throws(ClientError) {
                let result = try change(&changed)
                let updated = changed
                try database.write { writer in
                    try writer.put(Namespace.account, "keys", updated.encoded())
                    try alongside(writer, updated, result)
                }
                self.snapshot.withLock { $0 = updated }
                return .success(result)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
