/// How long failed logins lock out an account or a source address: 2^n seconds after n
/// consecutive failures, at most 300 s; a success clears it.
public enum LockoutPolicy {
    /// The longest lockout.
    public static let maximumSeconds: Int64 = 300

    /// The lockout after one more failure on top of `previous`.
    public static func afterFailure(_ previous: LockoutRecord?, now: Int64) -> LockoutRecord {
        let failures = (previous?.failures ?? 0) + 1
        let seconds = failures >= 9 ? maximumSeconds : min(maximumSeconds, Int64(1) << failures)
        return LockoutRecord(failures: failures, lockedUntil: now + seconds * 1000)
    }

    /// Seconds left before `record` allows another attempt, or nil when it allows one now.
    public static func secondsRemaining(_ record: LockoutRecord?, now: Int64) -> Int64? {
        guard let record, record.lockedUntil > now else { return nil }
        return (record.lockedUntil - now + 999) / 1000
    }
}
