/// How long failed logins lock out one subject: after `freeFailures`, 2^n seconds for the n-th failure
/// beyond them, at most `maximumSeconds`. Failures are forgotten after `forgetAfter` without a new one,
/// and a success clears the subjects it proves innocent (`LoginLockouts`).
public struct LockoutPolicy: Sendable, Equatable {
    /// Failures allowed before any lockout.
    public var freeFailures: Int
    /// The longest lockout.
    public var maximumSeconds: Int64
    /// Milliseconds after the end of the last lockout (or the last free failure) when failures are forgotten.
    public var forgetAfter: Int64 = Self.forgetting
    /// The `forgetAfter` of every policy: an hour. The retention sweep deletes records this far past their lockout.
    public static let forgetting: Int64 = 60 * 60 * 1000

    /// One stranger guessing at one account from one address: locked at once, 2 s, 4 s, … 300 s.
    public static let accountFromAddress = LockoutPolicy(freeFailures: 0, maximumSeconds: 300)
    /// One source typing e-mailed codes for one address: a few honest slips are free, then 2 s, 4 s, … 300 s.
    public static let codeFromAddress = LockoutPolicy(freeFailures: 4, maximumSeconds: 300)
    /// One address guessing at many accounts: a few honest slips are free.
    public static let address = LockoutPolicy(freeFailures: 10, maximumSeconds: 300)
    /// Many addresses guessing at one account: the slow last line, which must not hand strangers a way to
    /// lock the owner out, so it starts late and stays short.
    public static let account = LockoutPolicy(freeFailures: 100, maximumSeconds: 60)

    /// The lockout after one more failure on top of `previous`.
    public func afterFailure(_ previous: LockoutRecord?, now: Int64) -> LockoutRecord {
        let remembered = previous.flatMap { now - $0.lockedUntil > forgetAfter ? nil : $0 }
        let failures = (remembered?.failures ?? 0) + 1
        let counted = failures - freeFailures
        guard counted > 0 else { return LockoutRecord(failures: failures, lockedUntil: now) }
        let seconds = counted >= 9 ? maximumSeconds : min(maximumSeconds, Int64(1) << counted)
        return LockoutRecord(failures: failures, lockedUntil: now + seconds * 1000)
    }

    /// Seconds left before `record` allows another attempt, or nil when it allows one now.
    public static func secondsRemaining(_ record: LockoutRecord?, now: Int64) -> Int64? {
        guard let record, record.lockedUntil > now else { return nil }
        return (record.lockedUntil - now + 999) / 1000
    }
}
