import ParleyCrypto
import ParleyWire

/// The one check of an e-mailed code, for registration and for key recovery: expiry, then the stored hash in
/// constant time.
///
/// Wrong codes slow whoever types them, not the address's owner: they are counted per (address, source) and per
/// source as `LoginLockouts` counts failed logins, so a stranger who guesses from elsewhere waits 2 s, 4 s, … after a
/// few free slips while the owner's code keeps working for the owner. Only `codeGuessLimit` wrong codes from
/// everywhere together cancel a code: that caps a guesser with many sources at that many tries of 10^8.
enum CodeCheck {
    /// Wrong codes from all sources together that cancel a pending code.
    static let codeGuessLimit = 50

    /// The subjects one guess counts against, with their policies.
    static func subjects(email: String, address: String) -> [(subject: String, policy: LockoutPolicy)] {
        [("code-address:\(email) \(address)", .codeFromAddress), ("address:\(address)", .address)]
    }

    /// What a wrong code is told, alike whether a code is pending, was cancelled or never existed.
    static func wrongCode(_ again: String) -> String {
        "wrong code: check it and type it again (a code lasts 15 minutes, and too many wrong ones cancel it; then \(again))"
    }

    /// Throws `authentication_failed` with `retry_after` while this source has guessed too often at this address.
    static func refuseIfGuessingTooFast(email: String, environment: RequestEnvironment, context: ServerContext, now: Int64) async throws {
        for (subject, _) in subjects(email: email, address: environment.remoteAddress) {
            if let seconds = LockoutPolicy.secondsRemaining(try await context.store.lockout(subject: subject), now: now) {
                throw WireError(.authenticationFailed, "too many wrong codes from here; try again in \(seconds) s",
                                details: ["retry_after": .int(seconds)])
            }
        }
    }

    /// Counts a wrong code against this source; the error to answer it with.
    static func recordWrongCode(
        email: String, again: String, environment: RequestEnvironment, context: ServerContext, now: Int64
    ) async throws -> WireError {
        var wait: Int64 = 0
        for (subject, policy) in subjects(email: email, address: environment.remoteAddress) {
            let next = policy.afterFailure(try await context.store.lockout(subject: subject), now: now)
            try await context.store.saveLockout(subject: subject, next)
            wait = max(wait, LockoutPolicy.secondsRemaining(next, now: now) ?? 0)
        }
        return WireError(.authenticationFailed, wrongCode(again), details: wait > 0 ? ["retry_after": .int(wait)] : [:])
    }

    /// Passes, or throws `authentication_failed` (with `retry_after` when this source must wait); `again` says how to
    /// get a new code. Store failures are rethrown for the caller to map.
    static func verify(
        _ pending: VerificationRecord, email: String, hash: [UInt8], again: String,
        environment: RequestEnvironment, context: ServerContext, now: Int64
    ) async throws {
        try await refuseIfGuessingTooFast(email: email, environment: environment, context: context, now: now)
        guard pending.expiresAt >= now else {
            try await context.store.deleteVerification(email: email)
            throw WireError(.authenticationFailed, "the code has expired; \(again)")
        }
        guard ConstantTime.equals(hash, pending.codeHash) else {
            let answer = try await recordWrongCode(email: email, again: again, environment: environment, context: context, now: now)
            if try await context.store.recordWrongCode(email: email) >= codeGuessLimit {
                try await context.store.deleteVerification(email: email)
                throw WireError(.authenticationFailed, "too many wrong codes; \(again)")
            }
            throw answer
        }
        try await context.store.clearLockout(subject: subjects(email: email, address: environment.remoteAddress)[0].subject)
    }
}
