/// Revocation certificates (`sop revoke-key`): the certificate with a key revocation signature, which
/// any OpenPGP implementation that imports it takes as "never use this key again".
extension Certificate {
    /// Reason-for-revocation codes (RFC 4880 §5.2.3.23).
    public enum RevocationReason: UInt8, Sendable {
        /// No reason given: implementations treat the key as possibly compromised (a hard revocation).
        case unspecified = 0
        /// The key was replaced by a new one.
        case superseded = 1
        /// The secret key material may have been compromised.
        case compromised = 2
        /// The key is no longer used.
        case retired = 3
    }

    /// This certificate, without secret parts, with a key revocation signature made at `now` by its
    /// primary key (`primary`, unlocked).
    public func revoked(by primary: UnlockedKey, reason: RevocationReason = .unspecified, now: UInt32) throws -> Certificate {
        guard primary.publicKey == primaryKey else { throw PGPError.unusableKey("a key can only be revoked by its own primary key") }
        let revocation = try Signature.create(
            type: .keyRevocation, over: primaryKey.hashPrefix, by: primary, hash: .sha512, time: now,
            extraHashed: [.init(type: Signature.SubpacketType.reasonForRevocation, critical: false, data: [reason.rawValue])])
        return Certificate(primaryKey: primaryKey, directSignatures: directSignatures + [revocation], userIDs: userIDs,
                           subkeys: subkeys, secretKeys: [])
    }
}
