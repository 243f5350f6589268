/// Changing the pass phrase that protects a key's secret parts.
extension Certificate {
    /// This key with every secret part unlocked by one of `old` (or unprotected) and protected again
    /// with `new` (usage 254, iterated+salted SHA-256, AES-256). Throws `.needsPassphrase` or
    /// `.wrongPassphrase` when a part cannot be unlocked.
    public func reprotected(oldPassphrases old: [[UInt8]], newPassphrase new: [UInt8]) throws -> Certificate {
        let secrets = try secretKeys.map { secret -> SecretKey in
            let unlocked: UnlockedKey
            if !secret.isLocked {
                unlocked = try secret.unlock(passphrase: nil)
            } else {
                guard !old.isEmpty else { throw PGPError.needsPassphrase }
                guard let match = old.lazy.compactMap({ try? secret.unlock(passphrase: $0) }).first else {
                    throw PGPError.wrongPassphrase
                }
                unlocked = match
            }
            return try KeyGenerator.protect(unlocked, passphrase: new)
        }
        return Certificate(primaryKey: primaryKey, directSignatures: directSignatures, userIDs: userIDs,
                           subkeys: subkeys, secretKeys: secrets)
    }

    /// Whether every secret part is protected by a pass phrase.
    public var isFullyProtected: Bool { secretKeys.allSatisfy(\.isLocked) }
}
