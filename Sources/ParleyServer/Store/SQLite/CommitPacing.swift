/// When the group commit starts its next commit: at once, unless writes are arriving together.
///
/// A commit costs about the same whether it holds one write or twenty: a disk flush and the log frames of the pages
/// it changed, many of them shared by its writes (the ends of the messages table and its time index, the envelopes'
/// message index, the senders' undelivered bytes). Committing whenever anything waits made batches of about two
/// messages at 5,000 messages/s, each a flush and 13 log frames (docs/PERFORMANCE.md, "Commits paced"). So once a
/// commit held two writes or more — several connections are writing at once — the next starts no sooner than
/// `interval` after it; the writes that arrive meanwhile join it. A write alone (a quiet server, or one client
/// writing one thing after another) never waits: that commit held one write, and so the next starts at once.
/// Every write is still acknowledged only after its own commit.
struct CommitPacing: Sendable, Equatable {
    /// The shortest time from one commit's start to the next while writes arrive together.
    static let interval = Duration.milliseconds(2)

    private var lastStart: ContinuousClock.Instant?
    private var lastCount = 0

    /// How long to wait, at `now`, before starting the next commit; nil to start it now. After a wait the next commit
    /// starts whatever the last one held.
    mutating func pause(at now: ContinuousClock.Instant) -> Duration? {
        guard lastCount >= 2, let lastStart else { return nil }
        let remaining = lastStart + Self.interval - now
        guard remaining > .zero else { return nil }
        lastCount = 0
        return remaining
    }

    /// A commit of `count` writes started at `start`.
    mutating func started(at start: ContinuousClock.Instant, count: Int) {
        lastStart = start
        lastCount = count
    }
}
