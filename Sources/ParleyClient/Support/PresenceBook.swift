import ParleyWire
import Synchronization

/// Which contacts are online, as the server's presence notifications tell it (docs/API.md §9).
///
/// `online_users` arrives after every login with the full set, so a reconnect starts from the truth;
/// `user_online` / `user_offline` change one account in between.
final class PresenceBook: Sendable {
    private let online = Mutex<Set<Int64>>([])

    /// Applies one notification; returns whether it was about presence.
    @discardableResult
    func apply(_ event: String, _ fields: [String: JSONValue]) -> Bool {
        switch event {
        case "online_users":
            guard case .array(let values)? = fields["account_ids"] else { return true }
            let accounts = Set(values.compactMap { value -> Int64? in
                if case .number(let number) = value, let id = Int64(exactly: number) { return id }
                return nil
            })
            online.withLock { $0 = accounts }
        case "user_online":
            if let account = fields.optionalInt("account_id") { _ = online.withLock { $0.insert(account) } }
        case "user_offline":
            if let account = fields.optionalInt("account_id") { _ = online.withLock { $0.remove(account) } }
        default:
            return false
        }
        return true
    }

    /// The accounts online now.
    var accounts: Set<Int64> { online.withLock { $0 } }

    /// Forgets everyone (the connection is gone, so nothing is known).
    func clear() {
        online.withLock { $0.removeAll() }
    }
}
