import Synchronization

/// What unlocking each secret key gave during one read: a message with a thousand armored blocks
/// must not make the reader run the (deliberately slow) S2K a thousand times, least of all for a
/// pass phrase already known to be wrong. Kept for a single `MailReader.read` only.
final class UnlockMemo: Sendable {
    private let results = Mutex<[[UInt8]: Result<UnlockedKey, PGPError>]>([:])
    private let attemptCount = Mutex(0)

    /// How many times a key was actually unlocked (S2K run) through this memo.
    var attempts: Int { attemptCount.withLock { $0 } }

    /// `secret` unlocked: remembered from earlier in this read, from `cache`, or unlocked now with
    /// `passphrases` (and then put in `cache`). Failures are remembered too.
    func unlock(_ secret: SecretKey, passphrases: [[UInt8]], cache: DecryptedKeyCache?) throws -> UnlockedKey {
        let fingerprint = secret.publicKey.fingerprint
        if let known = results.withLock({ $0[fingerprint] }) { return try known.get() }
        if let cached = cache?.key(fingerprint: fingerprint) { return cached }
        attemptCount.withLock { $0 += 1 }
        let result: Result<UnlockedKey, PGPError>
        do {
            result = .success(try DecryptedKeyCache.unlock(secret, passphrases: passphrases))
        } catch let error as PGPError {
            result = .failure(error)
        } catch {
            result = .failure(.malformed("unreadable secret key"))
        }
        results.withLock { $0[fingerprint] = result }
        if case .success(let key) = result { cache?.store(key) }
        return try result.get()
    }
}
