import Synchronization

/// One token bucket per account, shared by all of that account's connections.
public final class AccountRateLimits: Sendable {
    private let rate: Double
    private let buckets = Mutex<[Int64: RateLimiter]>([:])

    /// Buckets refilling at `rate` per second with bursts of twice that.
    public init(rate: Double) {
        self.rate = rate
    }

    /// Takes a token from the account's bucket.
    public func allow(accountID: Int64, now: Int64) -> Bool {
        buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll() }  // bounded memory; a reset only forgives
            var bucket = buckets[accountID] ?? RateLimiter(rate: rate, burst: rate * 2, now: now)
            let allowed = bucket.allow(now: now)
            buckets[accountID] = bucket
            return allowed
        }
    }
}
