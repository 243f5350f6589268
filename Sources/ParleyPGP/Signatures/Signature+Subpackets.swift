/// Typed views of the subpackets Parley acts on (RFC 4880 §5.2.3).
extension Signature {
    enum SubpacketType {
        static let creationTime: UInt8 = 2
        static let signatureExpiration: UInt8 = 3
        static let keyExpiration: UInt8 = 9
        static let preferredSymmetric: UInt8 = 11
        static let issuer: UInt8 = 16
        static let preferredHash: UInt8 = 21
        static let preferredCompression: UInt8 = 22
        static let primaryUserID: UInt8 = 25
        static let reasonForRevocation: UInt8 = 29
        static let keyFlags: UInt8 = 27
        static let features: UInt8 = 30
        static let embeddedSignature: UInt8 = 32
        static let issuerFingerprint: UInt8 = 33
        /// Types whose meaning Parley knows, so a critical one is not a reason to reject.
        static let understood: Set<UInt8> = [2, 3, 4, 5, 7, 9, 11, 12, 16, 20, 21, 22, 23, 25, 27, 28, 30, 32, 33, 34, 39]
        /// Preferred AEAD ciphersuites (RFC 9580 §5.2.3.15): pairs of cipher and AEAD mode.
        static let preferredAEAD: UInt8 = 39
    }

    private func hashedValue(_ type: UInt8) -> [UInt8]? {
        hashed.last(where: { $0.type == type })?.data
    }

    private static func u32(_ data: [UInt8]?) -> UInt32? {
        guard let data, data.count == 4 else { return nil }
        return data.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Signature creation time (hashed), seconds since 1970.
    public var creationTime: UInt32? { Signature.u32(hashedValue(SubpacketType.creationTime)) }

    /// A revocation's reason code (RFC 9580 §5.2.3.31), or nil when it gives none.
    public var revocationReason: UInt8? { hashedValue(SubpacketType.reasonForRevocation)?.first }

    /// A revocation that takes back every signature of the key, made before it too: one with no reason, or
    /// "no reason" (0), or "key compromised" (2), or any reason RFC 9580 does not call soft (§5.2.3.31).
    public var isHardRevocation: Bool {
        guard let reason = revocationReason else { return true }
        return ![1, 3, 32].contains(reason)
    }

    /// Seconds after creation at which the signature expires (0 or absent: never).
    public var signatureLifetime: UInt32? { Signature.u32(hashedValue(SubpacketType.signatureExpiration)) }

    /// Seconds after the key's creation at which the key expires (0 or absent: never).
    public var keyLifetime: UInt32? { Signature.u32(hashedValue(SubpacketType.keyExpiration)) }

    /// Key flags, if the signature states them.
    public var keyFlags: KeyFlags? { hashedValue(SubpacketType.keyFlags)?.first.map { KeyFlags(rawValue: $0) } }

    /// Whether the signature marks its user ID as primary.
    public var isPrimaryUserID: Bool { hashedValue(SubpacketType.primaryUserID)?.first.map { $0 != 0 } ?? false }

    /// Preferred symmetric ciphers, best first.
    public var preferredSymmetric: [UInt8] { hashedValue(SubpacketType.preferredSymmetric) ?? [] }

    /// The issuer's key ID, from the issuer subpacket or the issuer fingerprint (hashed or not).
    public var issuerKeyID: [UInt8]? {
        if let fingerprint = issuerFingerprint { return fingerprint.count == 32 ? Array(fingerprint.prefix(8)) : Array(fingerprint.suffix(8)) }
        return (hashed + unhashed).last(where: { $0.type == SubpacketType.issuer && $0.data.count == 8 })?.data
    }

    /// The issuer's fingerprint (v4, 20 bytes; v6, 32 bytes), if given.
    public var issuerFingerprint: [UInt8]? {
        guard let data = (hashed + unhashed).last(where: { $0.type == SubpacketType.issuerFingerprint })?.data,
              (data.count == 21 && data[0] == 4) || (data.count == 33 && data[0] == 6) else { return nil }
        return Array(data[1...])
    }

    /// Embedded signatures (primary-key binding back-signatures).
    var embeddedSignatures: [Signature] {
        (hashed + unhashed).filter { $0.type == SubpacketType.embeddedSignature }.compactMap { try? Signature(packetBody: $0.data) }
    }

    /// Whether a hashed subpacket is critical and not understood, which makes the signature invalid.
    var hasUnknownCriticalSubpacket: Bool {
        hashed.contains { $0.critical && !SubpacketType.understood.contains($0.type) }
    }

    /// Whether the signature has expired at `time`.
    func isExpired(at time: UInt32) -> Bool {
        guard let created = creationTime, let lifetime = signatureLifetime, lifetime != 0 else { return false }
        return UInt64(created) + UInt64(lifetime) <= UInt64(time)
    }
}
