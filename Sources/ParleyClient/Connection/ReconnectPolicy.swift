/// When to try again after losing the server: exponential backoff from 1 s, doubling, capped at 30 s,
/// with up to 20% jitter so a restarted server is not hit by every client at the same instant.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The first wait, in seconds.
    public var initial: Double = 1
    /// The longest wait, in seconds.
    public var maximum: Double = 30

    /// The default 1 s → 30 s policy.
    public init(initial: Double = 1, maximum: Double = 30) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before attempt `attempt` (0 = first retry); `jitter` in 0...1 scales a 0–20% reduction.
    public func delay(attempt: Int, jitter: Double = 0) -> Double {
        let base = min(maximum, initial * Double(1 << min(attempt, 30)))
        return base * (1 - 0.2 * min(max(jitter, 0), 1))
    }
}
