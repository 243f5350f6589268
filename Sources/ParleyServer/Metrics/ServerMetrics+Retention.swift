import Metrics

extension ServerMetrics {
    /// One retention sweep finished: rows deleted by kind (every kind, zero included, so each series exists from
    /// the first sweep on), the sweep counted and timed.
    static func swept(_ report: SweepReport, duration: Duration) {
        for (kind, count) in report.counts {
            Counter(label: "parley_retention_swept_total", dimensions: [("kind", kind)]).increment(by: count)
        }
        Counter(label: "parley_retention_sweeps_total").increment()
        Timer(label: "parley_retention_sweep_duration_seconds").record(duration: duration)
    }

    /// A retention sweep failed (the database was unavailable); the next one tries again.
    static func sweepFailed() {
        Counter(label: "parley_retention_sweep_failures_total").increment()
    }
}
