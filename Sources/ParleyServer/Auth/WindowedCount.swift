/// How often something happened within a window, kept in the lockout store (the record's `failures` is the count,
/// `lockedUntil` when the window ends): pairings a source starts for one account, one-time prekeys one account takes
/// from another, recovery codes asked for one address. A window opens with the first event and closes at its end.
enum WindowedCount {
    /// Counts one more event of `subject` if fewer than `limit` fell in the open window (opening one of `window`
    /// milliseconds when none is); nil when counted, else the milliseconds until the window ends.
    static func take(_ subject: String, limit: Int, window: Int64, now: Int64, _ store: any Store) async throws -> Int64? {
        let open = try await store.lockout(subject: subject).flatMap { $0.lockedUntil > now ? $0 : nil }
        let count = open?.failures ?? 0
        guard count < limit else { return (open?.lockedUntil ?? now) - now }
        try await store.saveLockout(subject: subject, LockoutRecord(failures: count + 1, lockedUntil: open?.lockedUntil ?? now + window))
        return nil
    }

    /// `milliseconds` as whole seconds, rounded up (for `retry_after`).
    static func seconds(_ milliseconds: Int64) -> Int64 { (milliseconds + 999) / 1000 }
}
