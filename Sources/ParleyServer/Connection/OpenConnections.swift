import Synchronization

/// The server's open connections: counted for the operator, drained at shutdown, and waited for until the last
/// one has answered its request in flight and closed.
final class OpenConnections: Sendable {
    private struct Fields {
        var open: [ObjectIdentifier: ConnectionState] = [:]
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let fields = Mutex(Fields())

    func add(_ connection: ConnectionState) {
        fields.withLock { $0.open[ObjectIdentifier(connection)] = connection }
    }

    func remove(_ connection: ConnectionState) {
        let waiters = fields.withLock { fields -> [CheckedContinuation<Void, Never>] in
            fields.open[ObjectIdentifier(connection)] = nil
            guard fields.open.isEmpty else { return [] }
            defer { fields.waiters = [] }
            return fields.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// How many are open, and how many of those are logged in.
    var counts: (open: Int, signedIn: Int) {
        fields.withLock { ($0.open.count, $0.open.values.filter(\.isLoggedIn).count) }
    }

    /// Asks every connection to close once its request in flight, if any, is answered.
    func drainAll() {
        fields.withLock { Array($0.open.values) }.forEach { $0.drain() }
    }

    /// Returns once no connection is open.
    func waitUntilClosed() async {
        await withCheckedContinuation { continuation in
            let now = fields.withLock { fields -> Bool in
                if fields.open.isEmpty { return true }
                fields.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
