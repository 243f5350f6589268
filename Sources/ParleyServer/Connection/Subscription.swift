import NIOCore
import ParleyWire
import Synchronization

/// One connection's registration with the notification hub, at most one device at a time.
final class Subscription: Sendable {
    private let hub: NotificationHub
    private let state: ConnectionState
    private let outlet: NotificationOutlet
    private let current = Mutex<Caller?>(nil)

    init(hub: NotificationHub, state: ConnectionState) {
        self.hub = hub
        self.state = state
        outlet = NotificationOutlet(channel: state.channel)
    }

    /// Subscribes as `caller`, replacing an earlier login on the same connection.
    func start(_ caller: Caller) {
        cancel()
        current.withLock { $0 = caller }
        let state = self.state
        // Drain rather than close: a request in flight on this connection (a `sign_out`, say) still gets its answer.
        hub.subscribe(
            accountID: caller.accountID, deviceID: caller.deviceID, connection: ObjectIdentifier(state), outlet: outlet,
            pushesEnvelopes: caller.pushesEnvelopes, disconnect: { state.drain() })
    }

    /// Unsubscribes; returns who was subscribed.
    @discardableResult
    func cancel() -> Caller? {
        guard let caller = current.withLock({ value -> Caller? in defer { value = nil }; return value }) else { return nil }
        hub.unsubscribe(accountID: caller.accountID, deviceID: caller.deviceID, connection: ObjectIdentifier(state))
        return caller
    }
}
