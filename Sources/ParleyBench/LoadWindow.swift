import Foundation
import NIOCore
import Synchronization

/// The measured part of an open-loop run, the same for Parley and for its peers: after the warm-up the recorder
/// starts counting and the processes' CPU is read; after the sending ends it waits for the last deliveries, then
/// reports the window's deliveries, latencies and CPU.
struct LoadWindow: Sendable {
    /// What a window measured.
    struct Measurement {
        let latencies: [Double]
        let errors: [String: Int]
        let due: Int
        let undelivered: Int
        let unanswered: Int
        /// Seconds from the end of the warm-up to the last delivery (or the end of sending, if later).
        let seconds: Double
        let serverCPU: Double?
        let databaseCPU: Double?
        let generatorCPU: Double?

        /// `seconds` of CPU over the window, as a share of a core and per delivery.
        func cpu(_ seconds: Double?, _ missing: String) -> String {
            seconds.map {
                String(format: "%.2f s in %.1f s = %.0f%% of a core, %.0f µs per delivery",
                       $0, self.seconds, 100 * $0 / self.seconds, 1e6 * $0 / max(1, Double(latencies.count)))
            } ?? missing
        }

        /// The lines every report has: deliveries, latencies and errors.
        var deliveryLines: String {
            func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }
            let errorList = errors.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return """
                delivered            \(String(format: "%.0f", Double(latencies.count) / seconds)) deliveries/s (\(latencies.count) of the \(due) due from the window's acknowledged sends, in \(String(format: "%.1f", seconds)) s)
                undelivered          \(undelivered)\(unanswered > 0 ? " (and \(unanswered) sends never answered)" : "")
                latency p50          \(ms(latencies.quantile(0.50)))
                latency p99          \(ms(latencies.quantile(0.99)))
                latency p999         \(ms(latencies.quantile(0.999)))
                latency max          \(ms(latencies.last ?? .nan))
                errors               \(errors.values.reduce(0, +))\(errors.isEmpty ? "" : " (" + errorList + ")")
                """
        }
    }

    let recorder: LatencyRecorder
    let warmup: Double
    let duration: Double
    let serverCPU: @Sendable () -> Double?
    let databaseCPU: @Sendable () -> Double?

    /// Starts the clock: sending runs from the returned start to its end; the recorder counts after the warm-up.
    func measure(sending: (_ start: NIODeadline, _ end: NIODeadline) -> Void) async throws -> Measurement {
        let start = NIODeadline.now()
        let end = start + .nanoseconds(Int64((warmup + duration) * 1e9))
        let atStart = Mutex<(server: Double?, database: Double?, generator: Double?, at: UInt64)>((nil, nil, nil, 0))
        let (recorder, warmup, serverCPU, databaseCPU) = (recorder, warmup, serverCPU, databaseCPU)
        Task {
            try await Task.sleep(for: .seconds(warmup))
            recorder.setRecording(true)
            atStart.withLock { $0 = (serverCPU(), databaseCPU(), BenchTarget.ownCPUSeconds(), LatencyRecorder.now()) }
        }
        sending(start, end)
        try await Task.sleep(for: .nanoseconds((end - NIODeadline.now()).nanoseconds))
        let sendingEnded = LatencyRecorder.now()
        // Wait for the last deliveries: until none is due, or nothing arrived for a second (lost ones), 30 s at most.
        while LatencyRecorder.now() - sendingEnded < 30_000_000_000 {
            try await Task.sleep(for: .milliseconds(100))
            let (last, awaiting) = recorder.progress()
            if awaiting == 0 || LatencyRecorder.now() - max(last, sendingEnded) > 1_000_000_000 { break }
        }
        recorder.setRecording(false)
        let first = atStart.withLock { $0 }
        let seconds = Double(max(recorder.progress().lastDelivery, sendingEnded) - first.at) / 1e9
        func used(_ before: Double?, _ after: Double?) -> Double? {
            guard let before, let after else { return nil }
            return after - before
        }
        let (latencies, errors, due, undelivered, unanswered) = recorder.results()
        return Measurement(
            latencies: latencies, errors: errors, due: due, undelivered: undelivered, unanswered: unanswered, seconds: seconds,
            serverCPU: used(first.server, serverCPU()), databaseCPU: used(first.database, databaseCPU()),
            generatorCPU: used(first.generator, BenchTarget.ownCPUSeconds()))
    }
}
