/// The root key of the Double Ratchet (KDF_RK).
public struct RootKey: Sendable, Equatable {
    /// The 32-byte root key.
    public let key: [UInt8]

    /// Wraps a 32-byte root key.
    public init(key: [UInt8]) {
        self.key = key
    }

    /// One DH-ratchet step: HKDF(salt = rk, ikm = dh, "Parley_Ratchet_v1", 64) → new RK || CK.
    public func step(dh: [UInt8]) -> (RootKey, ChainKey) {
        let out = Primitives.hkdf(salt: key, ikm: dh, info: ProtocolConstants.ratchetInfo, count: 64)
        return (RootKey(key: Array(out[0..<32])), ChainKey(key: Array(out[32..<64]), index: 0))
    }
}
