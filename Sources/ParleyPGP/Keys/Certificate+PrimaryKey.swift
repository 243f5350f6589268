/// Unlocking the primary key, which alone makes key signatures: revocations, certifications and
/// self-signatures.
extension Certificate {
    /// The primary key's secret part, unlocked with one of `passphrases` (or unprotected). Throws
    /// `.needsPassphrase`, `.wrongPassphrase`, or `.unusableKey` when the secret part is not held.
    public func unlockedPrimaryKey(passphrases: [[UInt8]]) throws -> UnlockedKey {
        try unlocked([primaryKey], passphrases: passphrases, what: "primary")
    }

    /// The primary key unlocked for certifying other keys' user IDs at `now`: the certificate must be
    /// usable (bound, unrevoked, unexpired) and, where its self-signature states flags, allowed to certify.
    public func unlockedCertifyingKey(passphrases: [[UInt8]], now: UInt32) throws -> UnlockedKey {
        guard isUsable(at: now) else {
            throw KeyMaintenanceError.keyCannotCertify(isRevoked(at: now) ? "it is revoked" : "it is expired or has no valid self-signature")
        }
        if let flags = primarySelfSignature(at: now)?.keyFlags, !flags.contains(.certify) {
            throw KeyMaintenanceError.keyCannotCertify("its flags do not allow certifying")
        }
        guard primaryKey.canSign else { throw KeyMaintenanceError.keyCannotCertify("its algorithm cannot sign") }
        return try unlockedPrimaryKey(passphrases: passphrases)
    }
}
