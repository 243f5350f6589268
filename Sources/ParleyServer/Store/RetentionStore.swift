/// How long the server keeps what it stores, and how it deletes it (docs/OPERATIONS.md §5).
public struct RetentionPolicy: Sendable, Equatable {
    /// Messages (and their envelopes, reactions), finished uploads and waypoints older than this are deleted, and
    /// groups deleted longer ago than this (ms).
    public var timeToLive: Int64
    /// An upload still incomplete this long after `upload_start` is abandoned and deleted (ms).
    public var abandonedUploadAge: Int64
    /// Expired login nonces, pairings and codes are kept this long past their expiry, then deleted, and registration
    /// records this long after they were made (ms).
    public var expiredGrace: Int64
    /// A registration not confirmed this long after it was made is deleted with its keys (its code lived 15
    /// minutes; registering again makes a new one) (ms).
    public var unconfirmedAccountAge: Int64
    /// Rows deleted per transaction, so a sweep never holds a write lock for long.
    public var batchSize: Int

    /// One day in milliseconds.
    public static let day: Int64 = 86_400_000

    /// The documented defaults: 30 days, uploads abandoned and registrations not confirmed after 24 hours, 1,000
    /// rows per transaction.
    public init(
        days: Int64 = 30, abandonedUploadAge: Int64 = day, expiredGrace: Int64 = 3_600_000, unconfirmedAccountAge: Int64 = day,
        batchSize: Int = 1_000
    ) {
        self.timeToLive = days * Self.day
        self.abandonedUploadAge = abandonedUploadAge
        self.expiredGrace = expiredGrace
        self.unconfirmedAccountAge = unconfirmedAccountAge
        self.batchSize = batchSize
    }
}

/// What one sweep deleted, by kind of row: counts only, never contents.
public struct SweepReport: Sendable, Equatable {
    /// Per-device ciphertexts of messages past the TTL (delivered or not).
    public var envelopes = 0
    /// Reactions on messages past the TTL.
    public var reactions = 0
    /// Messages past the TTL (a deleted message's marker once its deletion is past the TTL too).
    public var messages = 0
    /// Chunks of expired or abandoned uploads.
    public var fileChunks = 0
    /// Expired or abandoned uploads.
    public var files = 0
    /// Waypoints received before the TTL.
    public var waypoints = 0
    /// Ended routes past the TTL with no waypoints left.
    public var routes = 0
    /// Memberships of groups deleted longer than the TTL ago.
    public var memberships = 0
    /// Groups deleted longer than the TTL ago, once nothing of theirs is left (their ids are never used again).
    public var conversations = 0
    /// Login nonces past their expiry.
    public var loginNonces = 0
    /// One-time prekeys of registrations never confirmed.
    public var unconfirmedPreKeys = 0
    /// Registrations never confirmed, a day after they were made (their device and signed prekeys go with them).
    public var unconfirmedAccounts = 0
    /// Verification codes an hour past their expiry.
    public var verifications = 0
    /// Invites held for registrations that are no longer waiting.
    public var heldInvites = 0
    /// Pairings past their expiry (their chunks go with them).
    public var pairings = 0
    /// Registration records older than an hour (kept only for surge detection, which looks back a minute).
    public var registrations = 0
    /// Login-failure records forgotten anyway (an hour past their lockout): without this a stranger trying
    /// address after address would grow the table for ever.
    public var lockouts = 0

    /// An empty report.
    public init() {}

    /// Every count with the metric label it is reported under.
    public var counts: [(kind: String, count: Int)] {
        [
            ("envelopes", envelopes), ("reactions", reactions), ("messages", messages), ("file_chunks", fileChunks),
            ("files", files), ("waypoints", waypoints), ("routes", routes),
            ("memberships", memberships), ("conversations", conversations), ("login_nonces", loginNonces),
            ("unconfirmed_prekeys", unconfirmedPreKeys), ("unconfirmed_accounts", unconfirmedAccounts), ("verifications", verifications),
            ("held_invites", heldInvites),
            ("pairings", pairings), ("registrations", registrations), ("lockouts", lockouts),
        ]
    }

    /// All rows deleted.
    public var total: Int { counts.reduce(0) { $0 + $1.count } }
}

/// Deleting what the retention policy says is no longer kept.
///
/// Sweeps only delete, in batches of `policy.batchSize` rows per transaction, skipping rows another sweep holds:
/// several server nodes may sweep one database at once without errors or double counting.
public protocol RetentionStore: Sendable {
    /// Deletes everything past `policy` at `now` (ms) and reports how many rows of each kind went.
    func sweepExpired(now: Int64, policy: RetentionPolicy) async throws -> SweepReport

    /// Row counts of the tables retention bounds, by table name (for operators and the bounded-growth test).
    func retainedRowCounts() async throws -> [String: Int]
}

extension RetentionStore {
    /// The tables `retainedRowCounts()` reports, in one place for both backends.
    static var retainedTables: [String] {
        [
            "messages", "envelopes", "reactions", "files", "file_chunks", "location_routes", "location_waypoints",
            "conversations", "members", "login_nonces", "verifications", "held_invites", "pairings", "pairing_chunks", "registrations", "lockouts",
        ]
    }
}
