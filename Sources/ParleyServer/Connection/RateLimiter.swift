/// A token bucket: `rate` requests per second on average, bursts up to `burst`.
public struct RateLimiter: Sendable {
    public let rate: Double
    public let burst: Double
    private var tokens: Double
    private var last: Int64

    /// A full bucket at time `now` (ms).
    public init(rate: Double, burst: Double, now: Int64) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now
    }

    /// Takes one token if there is one.
    public mutating func allow(now: Int64) -> Bool {
        tokens = min(burst, tokens + Double(max(0, now - last)) / 1000 * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
