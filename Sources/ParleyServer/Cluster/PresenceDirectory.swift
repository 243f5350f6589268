/// Which accounts have a device connected: to this node alone, or to any node of a cluster.
public protocol PresenceDirectory: Sendable {
    /// A connection of `caller` logged in on this node; returns whether the account was online before it
    /// (`onlineHere`: another of its devices was already connected to this node).
    func arrived(_ caller: Caller, onlineHere: Bool) async -> Bool
    /// A connection of `caller` on this node ended.
    func left(_ caller: Caller) async
    /// Those of `accounts` with at least one device connected anywhere.
    func online(_ accounts: [Int64]) async -> Set<Int64>
}

extension PresenceDirectory {
    /// Whether `account` has a device connected anywhere.
    func isOnline(_ account: Int64) async -> Bool {
        await online([account]).contains(account)
    }
}

/// Presence for a single node: the notification hub's own table of connections is the truth.
public struct LocalPresence: PresenceDirectory {
    let hub: NotificationHub

    /// Presence read from `hub`.
    public init(hub: NotificationHub) {
        self.hub = hub
    }

    public func arrived(_ caller: Caller, onlineHere: Bool) async -> Bool { onlineHere }
    public func left(_ caller: Caller) async {}

    public func online(_ accounts: [Int64]) async -> Set<Int64> {
        Set(accounts.filter { hub.isOnline(accountID: $0) })
    }
}
