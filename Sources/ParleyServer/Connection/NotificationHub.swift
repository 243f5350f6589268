import ParleyWire
import Synchronization

/// Routes notifications to the connected devices of an account: on this node directly, and on the
/// other nodes of a cluster through the relay (`PostgresBackplane`).
///
/// Each connection has a bounded queue. A device that does not read its notifications fast
/// enough is disconnected instead of buffered without bound: notifications are hints, and on
/// reconnect the client catches up from the store (`get_messages`), so nothing is lost.
public final class NotificationHub: Sendable {
    /// Notifications one connection may have waiting.
    public static let queueLimit = 1_024

    /// The field of a notification that only connections which asked for pushes get.
    static let pushedField = "ciphertext"

    /// A notification on its way to its connection's socket, with when it was raised (for the lag metric), and
    /// the bytes of pushed ciphertext it holds from the connection's allowance until it is written.
    struct Queued: Sendable {
        let message: WireMessage
        let raised: ContinuousClock.Instant
        var pushed = 0
        var allowance: EnvelopeAllowance?

        /// Called once it was written to the socket (or the connection closed).
        func written() {
            if pushed > 0 { allowance?.give(pushed) }
        }
    }

    struct Subscriber: Sendable {
        let outlet: NotificationOutlet
        let disconnect: @Sendable () -> Void
        /// Present when the device asked for pushed envelopes.
        let allowance: EnvelopeAllowance?
    }

    /// account → device → connection → subscriber, so a notification touches only its account's entries.
    private let subscribers = Mutex<[Int64: [UInt32: [ObjectIdentifier: Subscriber]]]>([:])
    // An object, not a closure: a closure kept in a Mutex came back wrapped in one more reabstraction
    // thunk on every read, so each event walked a chain as long as all the events before it.
    private let relay = Mutex<(any ClusterRelay)?>(nil)

    /// An empty hub.
    public init() {}

    /// Registers a logged-in connection, whose notifications go to `outlet`.
    func subscribe(
        accountID: Int64, deviceID: UInt32, connection: ObjectIdentifier, outlet: NotificationOutlet, pushesEnvelopes: Bool = false,
        disconnect: @escaping @Sendable () -> Void
    ) {
        subscribers.withLock {
            $0[accountID, default: [:]][deviceID, default: [:]][connection] = Subscriber(
                outlet: outlet, disconnect: disconnect, allowance: pushesEnvelopes ? EnvelopeAllowance() : nil)
        }
    }

    /// Removes a connection.
    func unsubscribe(accountID: Int64, deviceID: UInt32, connection: ObjectIdentifier) {
        subscribers.withLock { table in
            table[accountID]?[deviceID]?.removeValue(forKey: connection)
            if table[accountID]?[deviceID]?.isEmpty == true { table[accountID]?[deviceID] = nil }
            if table[accountID]?.isEmpty == true { table[accountID] = nil }
        }
    }

    /// Sends `event` to every connected device of `accountID`, or only to `deviceID`, skipping `except`,
    /// on this node and (through the relay) on every other node of a cluster.
    public func notify(accountID: Int64, deviceID: UInt32? = nil, except: (Int64, UInt32)? = nil, _ event: ServerEvent) {
        let exceptDevice = except.flatMap { $0.0 == accountID ? $0.1 : nil }
        share(ClusterEvent(accountID: accountID, deviceID: deviceID, exceptDevice: exceptDevice, action: .notify(event)))
    }

    /// Closes every connection of the account's device (or of all its devices, except one), on every node.
    public func disconnect(accountID: Int64, deviceID: UInt32? = nil, except: UInt32? = nil) {
        share(ClusterEvent(accountID: accountID, deviceID: deviceID, exceptDevice: except, action: .disconnect))
    }

    /// Hands every event this node raises to `relay` as well (the cluster backplane); set once, at start.
    public func relay(to relay: any ClusterRelay) {
        self.relay.withLock { $0 = relay }
    }

    /// Carries out `event` here and on every other node. Other nodes get a pushed envelope's hint only: a
    /// cluster payload stays small (docs/SCALING.md §2), and their devices fetch it as before.
    func share(_ event: ClusterEvent) {
        deliver(event)
        guard let relay = relay.withLock({ $0 }) else { return }
        if case .notify(let name, var fields) = event.action, fields.removeValue(forKey: Self.pushedField) != nil {
            relay.relay(ClusterEvent(accountID: event.accountID, deviceID: event.deviceID, exceptDevice: event.exceptDevice, action: .notify(event: name, fields: fields)))
        } else {
            relay.relay(event)
        }
    }

    /// Carries out `event` for this node's connections only (events from other nodes arrive here).
    public func deliver(_ event: ClusterEvent) {
        let targets = subscribers.withLock { table in
            (table[event.accountID] ?? [:]).filter { event.targets(device: $0.key) }.flatMap(\.value.values)
        }
        switch event.action {
        case .disconnect:
            targets.forEach { $0.disconnect() }
        case .notify(let name, let fields):
            let raised = ContinuousClock.now
            let pushedBytes = Self.pushedBytes(fields)
            let hint = Queued(
                message: .notification(event: name, fields: pushedBytes > 0 ? fields.filter { $0.key != Self.pushedField } : fields), raised: raised)
            for target in targets {
                var queued = hint
                // The envelope goes only to a connection that asked for it and has room for it; others get the hint.
                if pushedBytes > 0, let allowance = target.allowance, allowance.take(pushedBytes) {
                    queued = Queued(message: .notification(event: name, fields: fields), raised: raised, pushed: pushedBytes, allowance: allowance)
                }
                if !target.outlet.offer(queued) {
                    queued.written()
                    ServerMetrics.notification(dropped: true)
                    target.disconnect()
                } else {
                    ServerMetrics.notification(dropped: false)
                }
            }
        }
    }

    /// The length of the pushed ciphertext in `fields` (its base64 text), 0 when there is none.
    static func pushedBytes(_ fields: [String: JSONValue]) -> Int {
        guard case .string(let text)? = fields[pushedField] else { return 0 }
        return text.utf8.count
    }

    /// Whether any device of the account is connected to this node.
    public func isOnline(accountID: Int64) -> Bool {
        subscribers.withLock { $0[accountID] != nil }
    }
}
