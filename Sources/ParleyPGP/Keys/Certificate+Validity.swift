/// Which parts of a certificate are validly bound by the primary key, and usable at a given time.
extension Certificate {
    /// A user ID with its newest valid self-certification.
    public struct BoundUserID: Sendable {
        /// The user ID as text.
        public let userID: String
        /// The newest valid self-signature over it.
        public let selfSignature: Signature
    }

    /// The user IDs carrying a valid, unexpired, unrevoked self-certification at `time`.
    public func validUserIDs(at time: UInt32) -> [BoundUserID] {
        userIDs.compactMap { userID in
            let data = Signature.certificationData(primary: primaryKey, userID: userID.value)
            let valid = userID.signatures.filter { signature in
                isSelfSignature(signature, at: time) && (try? signature.verify(data: data, by: primaryKey)) != nil
            }
            let newest = valid.filter { $0.type.isCertification }.max { ($0.creationTime ?? 0) < ($1.creationTime ?? 0) }
            let revocation = valid.filter { $0.type == .certificationRevocation }.max { ($0.creationTime ?? 0) < ($1.creationTime ?? 0) }
            guard let newest else { return nil }
            if let revocation, (revocation.creationTime ?? 0) >= (newest.creationTime ?? 0) { return nil }
            return BoundUserID(userID: userID.string, selfSignature: newest)
        }
    }

    /// The self-signature that states the primary key's flags and expiry: for a v6 key its newest direct-key
    /// signature; otherwise the primary user ID's newest certification, else a direct-key signature.
    public func primarySelfSignature(at time: UInt32) -> Signature? {
        let bound = validUserIDs(at: time)
        // RFC 9580 §5.2.3.10: a v6 key's flags, expiry and preferences live in its direct-key signature (user ID
        // certifications need not repeat them); only a v6 key without one falls back to the v4 rule.
        if primaryKey.version == 6,
           let direct = validDirectSignatures(at: time).filter({ $0.type == .directKey }).max(by: { ($0.creationTime ?? 0) < ($1.creationTime ?? 0) }) {
            return direct
        }
        if let primary = bound.filter({ $0.selfSignature.isPrimaryUserID }).max(by: { ($0.selfSignature.creationTime ?? 0) < ($1.selfSignature.creationTime ?? 0) }) {
            return primary.selfSignature
        }
        if let first = bound.max(by: { ($0.selfSignature.creationTime ?? 0) < ($1.selfSignature.creationTime ?? 0) }) {
            return first.selfSignature
        }
        return validDirectSignatures(at: time).filter { $0.type == .directKey }.max { ($0.creationTime ?? 0) < ($1.creationTime ?? 0) }
    }

    private func validDirectSignatures(at time: UInt32) -> [Signature] {
        directSignatures.filter { signature in
            isSelfSignature(signature, at: time) && (try? signature.verify(data: primaryKey.hashPrefix, by: primaryKey)) != nil
        }
    }

    /// Whether the primary key is revoked at `time`: by a soft revocation made by then, or by a hard one
    /// (no reason, or compromise) made at any time — a hard revocation reaches back over the key's whole life.
    public func isRevoked(at time: UInt32) -> Bool {
        if validDirectSignatures(at: time).contains(where: { $0.type == .keyRevocation }) { return true }
        return validDirectSignatures(at: .max).contains { $0.type == .keyRevocation && $0.isHardRevocation }
    }

    /// The primary key's expiry time, or nil if it never expires.
    public func expiry(at time: UInt32) -> UInt32? {
        guard let lifetime = primarySelfSignature(at: time)?.keyLifetime, lifetime != 0 else { return nil }
        return UInt32(clamping: UInt64(primaryKey.created) + UInt64(lifetime))
    }

    /// Whether the certificate as a whole is usable at `time`: bound, unrevoked, unexpired.
    public func isUsable(at time: UInt32) -> Bool {
        guard primarySelfSignature(at: time) != nil, !isRevoked(at: time), primaryKey.created <= time else { return false }
        if let expiry = expiry(at: time), expiry <= time { return false }
        return true
    }

    /// The keys usable at `time` with any of `flags`: the primary key (by its self-signature's flags)
    /// and subkeys with a valid binding (and, for signing subkeys, a valid back-signature).
    public func keys(with flags: KeyFlags, at time: UInt32) -> [PublicKey] {
        guard isUsable(at: time) else { return [] }
        var result: [PublicKey] = []
        if let flagsOfPrimary = primarySelfSignature(at: time)?.keyFlags, !flagsOfPrimary.isDisjoint(with: flags) {
            result.append(primaryKey)
        }
        for subkey in subkeys {
            guard let binding = validBinding(of: subkey, at: time), let subFlags = binding.keyFlags,
                  !subFlags.isDisjoint(with: flags) else { continue }
            if let lifetime = binding.keyLifetime, lifetime != 0,
               UInt64(subkey.key.created) + UInt64(lifetime) <= UInt64(time) { continue }
            if subFlags.contains(.sign), !hasValidBackSignature(binding, subkey: subkey.key) { continue }
            result.append(subkey.key)
        }
        return result.filter { flags.isDisjoint(with: .encrypt) ? $0.canSign : $0.canEncrypt }
    }

    /// Keys that may encrypt at `time`, newest first (the usual choice is the first).
    public func encryptionKeys(at time: UInt32) -> [PublicKey] {
        keys(with: .encrypt, at: time).sorted { $0.created > $1.created }
    }

    /// Keys that may sign data at `time`, newest first.
    public func signingKeys(at time: UInt32) -> [PublicKey] {
        keys(with: .sign, at: time).sorted { $0.created > $1.created }
    }

    /// The newest valid binding signature of `subkey`, nil if unbound or revoked.
    func validBinding(of subkey: Subkey, at time: UInt32) -> Signature? {
        let data = Signature.bindingData(primary: primaryKey, subkey: subkey.key)
        let valid = subkey.signatures.filter { signature in
            isSelfSignature(signature, at: time) && (try? signature.verify(data: data, by: primaryKey)) != nil
        }
        if valid.contains(where: { $0.type == .subkeyRevocation }) { return nil }
        return valid.filter { $0.type == .subkeyBinding }.max { ($0.creationTime ?? 0) < ($1.creationTime ?? 0) }
    }

    private func hasValidBackSignature(_ binding: Signature, subkey: PublicKey) -> Bool {
        let data = Signature.bindingData(primary: primaryKey, subkey: subkey)
        return binding.embeddedSignatures.contains { back in
            back.type == .primaryKeyBinding && (try? back.verify(data: data, by: subkey)) != nil
        }
    }

    /// A signature issued by the primary key, created no later than `time` and not expired.
    private func isSelfSignature(_ signature: Signature, at time: UInt32) -> Bool {
        if let issuer = signature.issuerKeyID, issuer != primaryKey.keyID { return false }
        guard let created = signature.creationTime, created <= time else { return false }
        return !signature.isExpired(at: time)
    }
}
