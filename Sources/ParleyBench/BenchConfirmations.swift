import NIOCore
import ParleyWire
import Synchronization

/// The messages a benchmark connection was notified of and has not confirmed yet, and how its
/// confirmations fared: with `--confirm-every`, recipients confirm delivery in batches as a real
/// client does, so the server deletes what was delivered and its database stops growing.
final class BenchConfirmations: Sendable {
    /// `confirm_delivery` takes at most this many ids at once (API.md §6).
    static let batchLimit = 500

    private let pending = Mutex<[Int]>([])
    private let counts = Mutex<(confirmed: Int, failed: Int)>((0, 0))
    private let stopped = Atomic<Bool>(false)

    /// The connection was notified of message `id`.
    func notified(_ id: Int) { pending.withLock { $0.append(id) } }

    /// Confirmed deliveries so far, and failed confirmation requests.
    var totals: (confirmed: Int, failed: Int) { counts.withLock { $0 } }

    /// Ends `confirmPeriodically`: the round already scheduled still runs.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Every `interval` from `first` until `stop()`, confirms what arrived since, in batches of at most 500.
    func confirmPeriodically(on connection: BenchConnection, first: NIODeadline, interval: TimeAmount) {
        connection.eventLoop.every(from: first, interval: interval, while: { _ in !self.stopped.load(ordering: .relaxed) }) { _ in
            let ids = self.pending.withLock { pending -> [Int] in defer { pending = [] }; return pending }
            for start in stride(from: 0, to: ids.count, by: Self.batchLimit) {
                let batch = ids[start..<min(ids.count, start + Self.batchLimit)]
                connection.send("confirm_delivery", ["message_ids": .array(batch.map { .int($0) })]) { result in
                    let confirmed = (try? result.get())?.int("confirmed")
                    self.counts.withLock { counts in
                        if let confirmed { counts.confirmed += confirmed } else { counts.failed += 1 }
                    }
                }
            }
        }
    }
}
