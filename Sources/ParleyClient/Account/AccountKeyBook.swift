import ParleyClientFormats
import Synchronization

/// This device's account keys — identity and login seeds, ids, server, prekey counters — in one copy that the
/// account's actor and its components share. A change is made under a lock and written to the vault in the same
/// step (with whatever else belongs in that transaction), so no two changes interleave and a failed write changes
/// nothing.
final class AccountKeyBook: Sendable {
    private let keys: Mutex<AccountKeys>
    private let database: ClientDatabase

    init(_ keys: AccountKeys, database: ClientDatabase) {
        self.keys = Mutex(keys)
        self.database = database
    }

    /// The keys as they are now.
    var current: AccountKeys { keys.withLock { $0 } }

    /// Applies `change`, then stores the result together with what `alongside` writes (given the changed keys and
    /// what `change` returned) in one transaction; the keys change only when that commits. Returns what `change`
    /// returns.
    @discardableResult
    func change<T: Sendable>(
        _ change: (inout AccountKeys) throws(ClientError) -> T,
        alongside: (ClientDatabase.Writer, AccountKeys, T) throws -> Void = { _, _, _ in }
    ) throws(ClientError) -> T {
        let database = self.database
        let outcome: Result<T, ClientError> = keys.withLock { keys in
            var changed = keys
            do throws(ClientError) {
                let result = try change(&changed)
                let updated = changed
                try database.write { writer in
                    try writer.put(Namespace.account, "keys", updated.encoded())
                    try alongside(writer, updated, result)
                }
                keys = changed
                return .success(result)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
