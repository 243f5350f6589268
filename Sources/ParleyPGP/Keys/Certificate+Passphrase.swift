/// Changing the pass phrase that protects a key's secret parts.
extension Certificate {
    /// This key with every secret part unlocked by one of `old` (or unprotected) and protected again
    /// with `new` (usage 254, iterated+salted SHA-256, AES-256; v6 keys: AEAD under Argon2). Throws `.needsPassphrase` or
    /// `.wrongPassphrase` when a part cannot be unlocked.
    public func reprotected(oldPassphrases old: [[UInt8]], newPassphrase new: [UInt8]) throws -> Certificate {
        withSecrets(try unlockedSecrets(old).map { try KeyGenerator.protect($0, passphrase: new, subkey: $0.publicKey != primaryKey) })
    }

    /// This key with every secret part unlocked by one of `old` and stored without protection, as
    /// `sop change-key-password` without a new password asks. Same errors as `reprotected`.
    public func unprotected(oldPassphrases old: [[UInt8]]) throws -> Certificate {
        withSecrets(try unlockedSecrets(old).map(\.unprotected))
    }

    /// Every secret part unlocked, each by the first of `old` that opens it (parts may differ).
    private func unlockedSecrets(_ old: [[UInt8]]) throws -> [UnlockedKey] {
        try secretKeys.map { secret in
            guard secret.isLocked else { return try secret.unlock(passphrase: nil) }
            guard !old.isEmpty else { throw PGPError.needsPassphrase }
            guard let match = old.lazy.compactMap({ try? secret.unlock(passphrase: $0) }).first else {
                throw PGPError.wrongPassphrase
            }
            return match
        }
    }

    private func withSecrets(_ secrets: [SecretKey]) -> Certificate {
        Certificate(primaryKey: primaryKey, directSignatures: directSignatures, userIDs: userIDs,
                    subkeys: subkeys, secretKeys: secrets)
    }

    /// Whether every secret part is protected by a pass phrase.
    public var isFullyProtected: Bool { secretKeys.allSatisfy(\.isLocked) }
}
