import ParleyCrypto
import ParleyWire
import Synchronization

/// How much each account's listings may return: a token bucket counted in items (a conversation, a member of one),
/// refusing the next listing while it is in debt. Every answer costs the server work in proportion to its length, and
/// an account in the most groups allowed, each as large as allowed, lists about 257,000 members a call: at the request
/// rate alone that one account would keep several cores busy (docs/API.md §5, "Long lists are paid for"). An ordinary
/// account (tens of conversations) never comes near it.
///
/// A listing is paid for twice over in time: when it starts, the account's last answer's length is taken from the
/// bucket (so lists asked for at the same moment on several connections cannot all pass before any is paid for), and
/// when it ends, the difference to its own length. At most `listsAtOnce` of an account's lists are built at once,
/// which bounds the first ones too, before any length is known.
///
/// Per node: with several nodes an account may list on each (a cluster's nodes share the request budget, not this).
public final class ListingAllowance: Sendable {
    /// An account's lists being built at the same moment, at most.
    public static let listsAtOnce = 4

    /// A listing under way: what was taken from the bucket when it started.
    public struct Listing: Sendable {
        let accountID: Int64
        let reserved: Int
    }

    private struct Account {
        var bucket: RateLimiter
        var lastItems = 0
        var building = 0
    }

    /// Items per second the bucket refills; it holds ten seconds of them.
    public let itemsPerSecond: Double
    private let accounts = Mutex<[Int64: Account]>([:])

    public init(itemsPerSecond: Double) {
        self.itemsPerSecond = itemsPerSecond
    }

    /// Starts a listing, taking the account's last answer's length from its bucket; refuses with `rate_limited`
    /// (and `retry_after`, seconds) while the account's listings are not paid off or `listsAtOnce` are being built.
    /// Every listing that starts is ended with `end`.
    public func begin(accountID: Int64, now: Int64) throws(WireError) -> Listing {
        let outcome = accounts.withLock { accounts -> Result<Listing, WireError> in
            if accounts.count > 100_000 { accounts.removeAll() }  // bounded memory; a reset only forgives
            var account = accounts[accountID] ?? Account(bucket: bucket(now: now))
            let wait = account.bucket.debtMilliseconds(now: now)
            if wait > 0 {
                accounts[accountID] = account
                return .failure(Self.paced(seconds: (wait + 999) / 1000))
            }
            guard account.building < Self.listsAtOnce else { return .failure(Self.paced(seconds: 1)) }
            account.building += 1
            account.bucket.spend(Double(account.lastItems), now: now)
            accounts[accountID] = account
            return .success(Listing(accountID: accountID, reserved: account.lastItems))
        }
        return try outcome.get()
    }

    /// Ends a listing that answered `items` items (nil: it failed, and what it reserved is given back).
    public func end(_ listing: Listing, items: Int?, now: Int64) {
        accounts.withLock { accounts in
            guard var account = accounts[listing.accountID] else { return }  // forgotten by a reset
            account.building = max(0, account.building - 1)
            if let items { account.lastItems = items }
            account.bucket.spend(Double((items ?? 0) - listing.reserved), now: now)
            accounts[listing.accountID] = account
        }
    }

    /// Runs one listing from `begin` to `end`: `body` answers with its value and its length in items, and a listing
    /// that fails gives back what it reserved.
    public func listing<T>(
        accountID: Int64, clock: any WallClock, _ body: () async throws(WireError) -> (value: T, items: Int)
    ) async throws(WireError) -> T {
        let listing = try begin(accountID: accountID, now: clock.now())
        do throws(WireError) {
            let answer = try await body()
            end(listing, items: answer.items, now: clock.now())
            return answer.value
        } catch {
            end(listing, items: nil, now: clock.now())
            throw error
        }
    }

    /// Pays `items` for work whose cost is known before it starts (`search_messages`, at its most), refusing like
    /// `begin` while the account's listings are not paid off.
    public func pay(accountID: Int64, items: Int, now: Int64) throws(WireError) {
        let wait = accounts.withLock { accounts -> Int64 in
            if accounts.count > 100_000 { accounts.removeAll() }
            var account = accounts[accountID] ?? Account(bucket: bucket(now: now))
            let wait = account.bucket.debtMilliseconds(now: now)
            if wait <= 0 { account.bucket.spend(Double(items), now: now) }
            accounts[accountID] = account
            return wait
        }
        if wait > 0 { throw Self.paced(seconds: (wait + 999) / 1000) }
    }

    /// Pays for an answer of `items` items that never waits (`get_conversation`).
    public func spend(accountID: Int64, items: Int, now: Int64) {
        accounts.withLock { accounts in
            if accounts.count > 100_000 { accounts.removeAll() }
            var account = accounts[accountID] ?? Account(bucket: bucket(now: now))
            account.bucket.spend(Double(items), now: now)
            accounts[accountID] = account
        }
    }

    private func bucket(now: Int64) -> RateLimiter {
        RateLimiter(rate: itemsPerSecond, burst: itemsPerSecond * 10, now: now)
    }

    private static func paced(seconds: Int64) -> WireError {
        WireError(
            .rateLimited, "this list is long and was asked for just now; ask again in \(seconds) s",
            details: ["retry_after": .int(seconds)])
    }
}
