import Foundation
import Synchronization

/// Pairs each send with its delivery notification and keeps the send→notify latencies.
///
/// The notification can overtake the sender's acknowledgement (both leave the server at about the
/// same moment), so whichever of the two arrives first is parked until the other one comes.
final class LatencyRecorder: Sendable {
    private struct State {
        var sentAt: [Int: UInt64] = [:]      // message id → send time, once acknowledged
        var notifiedAt: [Int: UInt64] = [:]  // message id → notify time, when it beat the ack
        var latencies: [Double] = []
        var errors = 0
        var recording = false
    }

    private let state = Mutex(State())

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Starts or stops counting (warm-up traffic is not counted).
    func setRecording(_ on: Bool) { state.withLock { $0.recording = on } }

    /// The server acknowledged message `id`, sent at `sentAt`.
    func acknowledged(_ id: Int, sentAt: UInt64) {
        state.withLock { state in
            if let notified = state.notifiedAt.removeValue(forKey: id) {
                if state.recording { state.latencies.append(Double(notified &- sentAt) / 1e6) }
            } else {
                state.sentAt[id] = sentAt
            }
        }
    }

    /// The recipient was notified of message `id`.
    func notified(_ id: Int) {
        let now = Self.now()
        state.withLock { state in
            if let sent = state.sentAt.removeValue(forKey: id) {
                if state.recording { state.latencies.append(Double(now &- sent) / 1e6) }
            } else {
                state.notifiedAt[id] = now
            }
        }
    }

    /// A send failed.
    func failed() { state.withLock { $0.errors += 1 } }

    /// Latencies in milliseconds (sorted) and the error count.
    func results() -> (latencies: [Double], errors: Int) {
        state.withLock { ($0.latencies.sorted(), $0.errors) }
    }
}

extension Array where Element == Double {
    /// The value at quantile `q` of a sorted array.
    func quantile(_ q: Double) -> Double {
        guard !isEmpty else { return .nan }
        return self[Swift.min(count - 1, Int((Double(count - 1) * q).rounded()))]
    }
}
