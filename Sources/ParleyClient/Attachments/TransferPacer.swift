import ParleyWire

/// Spaces a file transfer's chunk requests under the server's per-connection limit, and says how long to
/// wait when the server answers `rate_limited` anyway.
///
/// A default server allows 50 requests a second per connection with bursts of 100 (API.md, limits). A
/// transfer of 256 KiB chunks sent as fast as answers come spends the burst in about 25 MiB and then fails;
/// paced at `rate` it leaves room for the connection's other requests (receipts, fetches of new messages).
/// Pure: the caller passes the clock's `now` and sleeps for what it is told.
struct TransferPacer {
    /// Requests a second a transfer allows itself (the server's default is 50).
    static let defaultRate = 40.0
    /// The slowest it gets after the server keeps saying `rate_limited`.
    static let minimumRate = 5.0
    /// How many `rate_limited` answers in a row end the transfer (the limit is then someone else's traffic).
    static let maximumRefusals = 30

    private(set) var rate: Double
    private var nextSlot: ContinuousClock.Instant?
    private(set) var refusalsInARow = 0

    init(rate: Double = Self.defaultRate) {
        self.rate = rate
    }

    /// How long to wait before the next request, which takes its slot.
    mutating func delay(now: ContinuousClock.Instant) -> Duration {
        let slot = max(nextSlot ?? now, now)
        nextSlot = slot + .seconds(1 / rate)
        return slot - now
    }

    /// The server took the request.
    mutating func accepted() {
        refusalsInARow = 0
    }

    /// The server answered `rate_limited`: how long to wait before asking again (its `retry_after` when it
    /// gave one, else a pause that grows with each refusal), and the pace halves. Nil after too many in a row.
    mutating func refused(_ error: WireError, now: ContinuousClock.Instant) -> Duration? {
        refusalsInARow += 1
        guard refusalsInARow <= Self.maximumRefusals else { return nil }
        rate = max(Self.minimumRate, rate / 2)
        var wait = Duration.milliseconds(250 * min(refusalsInARow, 8))
        if case .number(let seconds)? = error.details["retry_after"], seconds > 0 {
            wait = .milliseconds(Int64(min(seconds, 300) * 1000))
        }
        nextSlot = now + wait
        return wait
    }
}
