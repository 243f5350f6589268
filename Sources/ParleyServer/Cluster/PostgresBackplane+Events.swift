import Foundation
import ParleyWire
import PostgresNIO
import Synchronization

extension PostgresBackplane: ClusterRelay {
    /// Queues an event for the other nodes.
    public func relay(_ event: ClusterEvent) {
        guard hasPeers else { return }
        let dropped = pending.withLock { pending -> Int in
            pending.append(event)
            let excess = pending.count - Self.pendingLimit
            if excess > 0 { pending.removeFirst(excess) }
            return max(0, excess)
        }
        if dropped > 0 { ServerMetrics.clusterPublished(sent: 0, notifies: 0, dropped: dropped) }
        wake.yield()
    }

    /// Sends queued events until closed; whatever queued while a `NOTIFY` was in flight goes in the next.
    func publish() async {
        for await _ in wakeups {
            let events = pending.withLock { pending in defer { pending = [] }; return pending }
            guard !events.isEmpty else { continue }
            let (payloads, tooLarge) = ClusterBatch.payloads(node: nodeID, events: events)
            var sent = 0
            var notifies = 0
            for payload in payloads {
                do {
                    try await store.client.withConnection { connection in
                        try await connection.run("SELECT pg_notify(\(Self.channel), \(payload.text))", self.logger)
                    }
                    sent += payload.events
                    notifies += 1
                } catch {
                    logger.warning("could not send cluster events", metadata: ["error": "\(PostgresStore.reason(error))"])
                }
            }
            ServerMetrics.clusterPublished(sent: sent, notifies: notifies, dropped: events.count - sent)
            if tooLarge > 0 { logger.warning("cluster events too large to send were dropped", metadata: ["count": "\(tooLarge)"]) }
        }
    }

    /// Sends what this node says of itself (docs/SCALING.md §2.1); a failure is logged: the heartbeat's reading of
    /// `cluster_nodes` finds the nodes anyway, within `heartbeatSeconds`.
    func sendPeerNotice(_ notice: ClusterBatch.PeerNotice) async {
        let payload = ClusterBatch.payload(node: nodeID, notice)
        do {
            try await store.client.withConnection { connection in
                try await connection.run("SELECT pg_notify(\(Self.channel), \(payload))", self.logger)
            }
        } catch {
            logger.warning("could not send a cluster peer notice", metadata: ["error": "\(PostgresStore.reason(error))"])
        }
    }

    /// Receives events until cancelled, reopening a lost listening connection after a second.
    /// `ready` hears once: when the first `LISTEN` is in place, or why it could not be.
    func listen(ready: ReadySignal) async {
        while !Task.isCancelled {
            do {
                let connection = try await PostgresStore.openConnection(url, logger: logger)
                do {
                    try await connection.listen(on: Self.channel) { notifications in
                        ready.succeed()
                        for try await notification in notifications { receive(notification.payload) }
                    }
                } catch {
                    try? await connection.close()
                    throw error
                }
                try? await connection.close()
            } catch {
                if ready.fail(StoreError.unavailable("cannot listen for cluster events (\(PostgresStore.reason(error)))")) { return }
                if !Task.isCancelled {
                    logger.warning("lost the cluster event connection; reconnecting", metadata: ["error": "\(PostgresStore.reason(error))"])
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Delivers another node's events to this node's connections; anything unreadable is logged and ignored.
    func receive(_ payload: String) {
        guard let batch = ClusterBatch.parse(payload) else {
            logger.warning("ignored an unreadable cluster event payload", metadata: ["bytes": "\(payload.utf8.count)"])
            return
        }
        guard batch.node != nodeID else { return }
        switch batch.peer {
        case .hello?:
            // From now on this node relays to the newcomer; then it says so, and the newcomer starts serving.
            notePeers([batch.node])
            Task { await self.sendPeerNotice(.heard(node: batch.node)) }
        case .heard(let target)?:
            notePeers([batch.node])
            if target == nodeID { answered.withLock { _ = $0.insert(batch.node) } }
        case nil:
            break
        }
        guard let hub = hub.withLock({ $0 }) else { return }
        ServerMetrics.clusterReceived(events: batch.events.count)
        batch.events.forEach(hub.deliver)
    }
}

/// A one-shot start-up signal: the first `succeed` or `fail` resumes the waiter; later ones do nothing.
final class ReadySignal: Sendable {
    private let waiter = Mutex<CheckedContinuation<Void, any Error>?>(nil)

    /// Waits for the signal.
    func wait(starting body: () -> Void) async throws {
        try await withCheckedThrowingContinuation { continuation in
            waiter.withLock { $0 = continuation }
            body()
        }
    }

    func succeed() {
        waiter.withLock { waiter in defer { waiter = nil }; return waiter }?.resume()
    }

    /// Resumes the waiter with `error`; returns whether there was one (start-up failed rather than a later loss).
    func fail(_ error: any Error) -> Bool {
        guard let waiter = waiter.withLock({ waiter in defer { waiter = nil }; return waiter }) else { return false }
        waiter.resume(throwing: error)
        return true
    }
}
