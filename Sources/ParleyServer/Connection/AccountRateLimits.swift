import Synchronization

/// One token bucket per account, shared by all of that account's connections — on this node, or,
/// with a `TokenLedger`, on every node of a cluster.
///
/// With a ledger a node takes a lease of a few tokens at a time from the account's bucket in the
/// database and spends it locally; a lease not spent within 10 seconds is given up. The cluster as a
/// whole never allows more than the one bucket holds, at the cost of one database call per lease (for
/// a quiet account, one per 10 seconds: a short lease made every chat message cost a second call).
public final class AccountRateLimits: Sendable {
    private let rate: Double
    private let ledger: (any TokenLedger)?
    private let buckets = Mutex<[Int64: RateLimiter]>([:])
    private let leases = Mutex<[Int64: Lease]>([:])

    /// Tokens this node holds for an account, usable until `expires` (ms).
    struct Lease {
        var tokens: Int
        var expires: Int64
    }

    /// How long a lease may be spent.
    static let leaseMilliseconds: Int64 = 10_000

    /// Buckets refilling at `rate` per second with bursts of twice that; in `ledger` when given.
    public init(rate: Double, ledger: (any TokenLedger)? = nil) {
        self.rate = rate
        self.ledger = ledger
    }

    /// Takes a token from the account's bucket.
    public func allow(accountID: Int64, now: Int64) async -> Bool {
        guard let ledger else { return allowLocally(accountID: accountID, now: now) }
        let leased = leases.withLock { leases -> Bool in
            guard var lease = leases[accountID], lease.tokens > 0, lease.expires > now else { return false }
            lease.tokens -= 1
            leases[accountID] = lease
            return true
        }
        if leased { return true }
        let burst = rate * 2
        let want = max(1, Int(burst / 8))
        let granted: Int
        do {
            granted = try await ledger.take(subject: "account:\(accountID)", count: want, rate: rate, burst: burst, now: now)
        } catch {
            // The database is down: requests will fail anyway; limit on this node alone meanwhile.
            return allowLocally(accountID: accountID, now: now)
        }
        guard granted > 0 else { return false }
        leases.withLock { leases in
            if leases.count > 100_000 { leases.removeAll() }  // bounded memory; dropping a lease only costs tokens
            leases[accountID] = Lease(tokens: granted - 1, expires: now + Self.leaseMilliseconds)
        }
        return true
    }

    private func allowLocally(accountID: Int64, now: Int64) -> Bool {
        buckets.withLock { buckets in
            if buckets.count > 100_000 { buckets.removeAll() }  // bounded memory; a reset only forgives
            var bucket = buckets[accountID] ?? RateLimiter(rate: rate, burst: rate * 2, now: now)
            let allowed = bucket.allow(now: now)
            buckets[accountID] = bucket
            return allowed
        }
    }
}
