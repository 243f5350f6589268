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
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Milliseconds until the bucket is out of debt (0: it has tokens now).
    public mutating func debtMilliseconds(now: Int64) -> Int64 {
        refill(now: now)
        return tokens > 0 ? 0 : Int64((-tokens / rate * 1000).rounded(.up)) + 1
    }

    /// Takes `count` tokens, going into debt when there are fewer (work that was done already, paid after); a
    /// negative count gives tokens back, never past `burst`.
    public mutating func spend(_ count: Double, now: Int64) {
        refill(now: now)
        tokens = min(burst, tokens - count)
    }

    private mutating func refill(now: Int64) {
        tokens = min(burst, tokens + Double(max(0, now - last)) / 1000 * rate)
        last = now
    }
}
