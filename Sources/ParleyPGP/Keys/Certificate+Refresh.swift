/// Keeping a key's self-signatures current (`sop update-key`).
extension Certificate {
    /// How close to its expiry a key or subkey is renewed: 90 days.
    public static let renewalWindow: UInt32 = 90 * 24 * 3600

    /// This key with fresh self-signatures, made at `now` by `primary` (its primary key, unlocked), where
    /// one is due; everything else, secret parts included, stays as it was. A valid user ID's newest
    /// self-certification, and a valid subkey's newest binding, is made again (SHA-512, the same
    /// subpackets) when it was hashed with SHA-1, or when the key or subkey it states expires within
    /// `renewalWindow` (or has expired): the expiry then moves to `now` plus the lifetime the key had
    /// (its old expiry minus its creation). Revoked user IDs and subkeys are left alone; nothing is
    /// added (no new subkeys, algorithms or features).
    public func refreshed(by primary: UnlockedKey, now: UInt32) throws -> Certificate {
        guard primary.publicKey == primaryKey else { throw PGPError.unusableKey("self-signatures are made by the primary key") }
        // Only a signature's own expiry makes it invalid, not the key's, so an expired key still renews.
        let bound = Dictionary(validUserIDs(at: now).map { ($0.userID, $0.selfSignature) }, uniquingKeysWith: { first, _ in first })
        let userIDs = try self.userIDs.map { userID -> UserID in
            guard let old = bound[userID.string],
                  let fresh = try renewed(old, over: Signature.certificationData(primary: primaryKey, userID: userID.value),
                                          key: primaryKey, by: primary, now: now) else { return userID }
            return UserID(value: userID.value, signatures: userID.signatures + [fresh])
        }
        let subkeys = try self.subkeys.map { subkey -> Subkey in
            guard let old = validBinding(of: subkey, at: now),
                  let fresh = try renewed(old, over: Signature.bindingData(primary: primaryKey, subkey: subkey.key),
                                          key: subkey.key, by: primary, now: now) else { return subkey }
            return Subkey(key: subkey.key, signatures: subkey.signatures + [fresh])
        }
        return Certificate(primaryKey: primaryKey, directSignatures: directSignatures, userIDs: userIDs,
                           subkeys: subkeys, secretKeys: secretKeys)
    }

    /// A new self-signature replacing `old` over `data`, or nil when `old` is not due.
    private func renewed(_ old: Signature, over data: [UInt8], key: PublicKey, by primary: UnlockedKey, now: UInt32) throws -> Signature? {
        let lifetime = old.keyLifetime.flatMap { $0 == 0 ? nil : $0 }
        let expiresSoon = lifetime.map { UInt64(key.created) + UInt64($0) <= UInt64(now) + UInt64(Certificate.renewalWindow) } ?? false
        guard old.hashAlgorithm == .sha1 || expiresSoon else { return nil }
        // Keep what the old signature stated, except what is made anew; a back-signature kept in the
        // unhashed area moves into the hashed one so it survives.
        let made: Set<UInt8> = [Signature.SubpacketType.creationTime, Signature.SubpacketType.issuerFingerprint,
                                Signature.SubpacketType.issuer, Signature.SubpacketType.signatureExpiration,
                                Signature.SubpacketType.keyExpiration]
        var kept = old.hashed.filter { !made.contains($0.type) }
        kept += old.unhashed.filter { $0.type == Signature.SubpacketType.embeddedSignature && !kept.contains($0) }
        if let lifetime {
            var value: [UInt8] = []
            value.appendU32(UInt32(clamping: UInt64(now) - UInt64(min(key.created, now)) + UInt64(lifetime)))
            kept.append(.init(type: Signature.SubpacketType.keyExpiration, critical: false, data: value))
        }
        return try Signature.create(type: old.type, over: data, by: primary, hash: .sha512, time: now, extraHashed: kept)
    }
}
