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
    func apply(_ event: ServerEvent) -> Bool {
        switch event {
        case .onlineUsers(let users):
            online.withLock { $0 = Set(users.accountIDs) }
        case .userOnline(let user):
            _ = online.withLock { $0.insert(user.accountID) }
        case .userOffline(let user):
            _ = online.withLock { $0.remove(user.accountID) }
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
