import Foundation
import Synchronization

/// Pairs each send with its recipients' delivery notifications and keeps the send→notify latencies
/// (one per recipient: a group message to five others counts five deliveries).
///
/// A notification can overtake the sender's acknowledgement (both leave the server at about the
/// same moment), so notifications that arrive first are parked until the acknowledgement comes.
final class LatencyRecorder: Sendable {
    fileprivate struct State {
        var sent: [Int: (at: UInt64, remaining: Int)] = [:]  // message id → send time and deliveries still due
        var early: [Int: [UInt64]] = [:]                       // message id → notify times that beat the ack
        var latencies: [Double] = []
        var errors: [String: Int] = [:]
        /// Since when messages count (nil: not recording): those sent earlier, in the warm-up, do not.
        var countingSince: UInt64?
        var lastDelivery: UInt64 = 0
        var unanswered = 0
        /// Deliveries due from acknowledged messages that count.
        var due = 0
    }

    private let state = Mutex(State())

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Starts or stops counting: only messages sent after the start count (not warm-up traffic).
    func setRecording(_ on: Bool) { state.withLock { $0.countingSince = on ? Self.now() : nil } }

    /// A message is being sent; its answer (`acknowledged` or `failed`) is due.
    func sending() { state.withLock { $0.unanswered += 1 } }

    /// The server acknowledged message `id`, sent at `sentAt` to `recipients` connections.
    func acknowledged(_ id: Int, sentAt: UInt64, recipients: Int) {
        state.withLock { state in
            state.unanswered -= 1
            let early = state.early.removeValue(forKey: id) ?? []
            if state.counts(sentAt) { state.due += recipients }
            if state.counts(sentAt), !early.isEmpty {
                state.latencies += early.map { Double($0 &- sentAt) / 1e6 }
                state.lastDelivery = max(state.lastDelivery, early.max() ?? 0)
            }
            if recipients > early.count { state.sent[id] = (sentAt, recipients - early.count) }
        }
    }

    /// A recipient was notified of message `id`.
    func notified(_ id: Int) {
        let now = Self.now()
        state.withLock { state in
            guard let (sentAt, remaining) = state.sent[id] else {
                state.early[id, default: []].append(now)
                return
            }
            if state.counts(sentAt) {
                state.latencies.append(Double(now &- sentAt) / 1e6)
                state.lastDelivery = now
            }
            state.sent[id] = remaining > 1 ? (sentAt, remaining - 1) : nil
        }
    }

    /// When the last delivery was recorded (0 before any), and how many messages still wait for their
    /// acknowledgement or a delivery.
    func progress() -> (lastDelivery: UInt64, awaiting: Int) {
        state.withLock { ($0.lastDelivery, $0.sent.count + $0.unanswered) }
    }

    /// A send failed, for `reason` (the server's error code, or what went wrong on the connection).
    func failed(_ reason: String) {
        state.withLock {
            $0.errors[reason, default: 0] += 1
            $0.unanswered -= 1
        }
    }

    /// What was measured: latencies in milliseconds (sorted), the errors by reason, the deliveries due
    /// from acknowledged messages that count, and how many of those never arrived (so far) and how many
    /// sends are still unanswered.
    func results() -> (latencies: [Double], errors: [String: Int], due: Int, undelivered: Int, unanswered: Int) {
        state.withLock { state in
            let undelivered = state.sent.values.filter { state.counts($0.at) }.reduce(0) { $0 + $1.remaining }
            return (state.latencies.sorted(), state.errors, state.due, undelivered, state.unanswered)
        }
    }
}

extension Array where Element == Double {
    /// The value at quantile `q` of a sorted array.
    func quantile(_ q: Double) -> Double {
        guard !isEmpty else { return .nan }
        return self[Swift.min(count - 1, Int((Double(count - 1) * q).rounded()))]
    }
}

extension LatencyRecorder.State {
    /// Whether a message sent at `sentAt` counts.
    fileprivate func counts(_ sentAt: UInt64) -> Bool {
        countingSince.map { sentAt >= $0 } ?? false
    }
}
