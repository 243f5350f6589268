import ParleyCrypto
import ParleyWire

/// The one check of an e-mailed code, for registration and for key recovery: expiry, then the stored hash
/// in constant time; a wrong code is counted and the fifth cancels the verification.
enum CodeCheck {
    /// Passes, or throws `authentication_failed` (with `attempts_left` for a wrong code); `again` says how to
    /// get a new code. Store failures are rethrown for the caller to map.
    static func verify(
        _ pending: VerificationRecord, email: String, hash: [UInt8], again: String, context: ServerContext, now: Int64
    ) async throws {
        guard pending.expiresAt >= now else {
            try await context.store.deleteVerification(email: email)
            throw WireError(.authenticationFailed, "the code has expired; \(again)")
        }
        guard ConstantTime.equals(hash, pending.codeHash) else {
            let failures = try await context.store.recordWrongCode(email: email)
            if failures >= AuthHandlers.maximumWrongCodes {
                try await context.store.deleteVerification(email: email)
                throw WireError(.authenticationFailed, "too many wrong codes; \(again)")
            }
            throw WireError(.authenticationFailed, "wrong code (\(AuthHandlers.maximumWrongCodes - failures) attempts left)",
                            details: ["attempts_left": .int(AuthHandlers.maximumWrongCodes - failures)])
        }
    }
}
