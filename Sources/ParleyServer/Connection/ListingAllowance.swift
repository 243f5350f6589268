import ParleyWire
import Synchronization

/// How much each account's listings may return: a token bucket counted in items (a conversation, a member of one),
/// paid after the answer is built and refusing the next listing while it is in debt. Every answer costs the server
/// work in proportion to its length, and an account in the most groups allowed, each as large as allowed, lists
/// about 257,000 members a call: at the request rate alone that one account would keep several cores busy
/// (docs/API.md §5, "Long lists are paid for"). An ordinary account (tens of conversations) never comes near it.
///
/// Per node: with several nodes an account may list on each (a cluster's nodes share the request budget, not this).
public final class ListingAllowance: Sendable {
    /// Items per second the bucket refills; it holds ten seconds of them.
    public let itemsPerSecond: Double
    private let buckets = Mutex<[Int64: RateLimiter]>([:])

    public init(itemsPerSecond: Double) {
        self.itemsPerSecond = itemsPerSecond
    }

    /// Refuses with `rate_limited` (and `retry_after`, seconds) while the account's last listings are not paid off.
    public func check(accountID: Int64, now: Int64) throws(WireError) {
        let wait = buckets.withLock { buckets -> Int64 in
            guard var bucket = buckets[accountID] else { return 0 }
            let wait = bucket.debtMilliseconds(now: now)
            buckets[accountID] = bucket
            return wait
        }
        guard wait > 0 else { return }
        let seconds = (wait + 999) / 1000
        throw WireError(
            .rateLimited, "this list is long and was asked for just now; ask again in \(seconds) s",
            details: ["retry_after": .int(seconds)])
    }

    /// Pays for an answer of `items` items.
    public func spend(accountID: Int64, items: Int, now: Int64) {
        buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll() }  // bounded memory; a reset only forgives
            var bucket = buckets[accountID] ?? RateLimiter(rate: itemsPerSecond, burst: itemsPerSecond * 10, now: now)
            bucket.spend(Double(items), now: now)
            buckets[accountID] = bucket
        }
    }
}
