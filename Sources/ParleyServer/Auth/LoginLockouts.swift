import ParleyWire

/// Which failures slow whom: proving a key for an account (`login_finish`, `add_device`, recovery) is
/// counted per (account, source address), per source address and per account, each with its own
/// `LockoutPolicy`, so a stranger's wrong guesses lock out the stranger, not the owner logging in from
/// somewhere else. Only the account-wide count, a slow last line, is shared with the owner.
enum LoginLockouts {
    /// The subjects one attempt counts against, with their policies. Stored subjects are plain strings.
    static func subjects(email: String, address: String) -> [(subject: String, policy: LockoutPolicy)] {
        [
            ("account-address:\(email) \(address)", .accountFromAddress),
            ("address:\(address)", .address),
            ("account:\(email)", .account),
        ]
    }

    /// Throws `authentication_failed` with `retry_after` while any subject of this attempt is locked.
    static func refuseIfLockedOut(email: String, environment: RequestEnvironment, context: ServerContext, now: Int64) async throws {
        for (subject, _) in subjects(email: email, address: environment.remoteAddress) {
            if let seconds = LockoutPolicy.secondsRemaining(try await context.store.lockout(subject: subject), now: now) {
                // `retry_after` tells a client this is a lockout, not a wrong key: wait, do not give up.
                throw WireError(.authenticationFailed, "too many failed logins; try again in \(seconds) s",
                                details: ["retry_after": .int(seconds)])
            }
        }
    }

    /// Counts a failure against every subject; returns the longest wait it caused, in seconds.
    static func recordFailure(email: String, environment: RequestEnvironment, context: ServerContext, now: Int64) async throws -> Int64 {
        var wait: Int64 = 0
        for (subject, policy) in subjects(email: email, address: environment.remoteAddress) {
            let next = policy.afterFailure(try await context.store.lockout(subject: subject), now: now)
            try await context.store.saveLockout(subject: subject, next)
            wait = max(wait, LockoutPolicy.secondsRemaining(next, now: now) ?? 0)
        }
        return wait
    }

    /// After a proven key: forgets the account's failures from this address and everywhere. The address's
    /// own count stays (it decays): logging in to one's own account must not reset guessing at others.
    static func clearAfterSuccess(email: String, environment: RequestEnvironment, context: ServerContext) async throws {
        for (subject, policy) in subjects(email: email, address: environment.remoteAddress) where policy != .address {
            try await context.store.clearLockout(subject: subject)
        }
    }
}
