/// The AES-256-GCM key and nonce expanded from one message key.
public struct MessageKeys: Sendable {
    /// The AES-256 key.
    public let key: [UInt8]
    /// The 12-byte GCM nonce.
    public let nonce: [UInt8]

    /// HKDF(salt = 32 zero bytes, ikm = mk, info, 44) → key(32) || nonce(12).
    public init(messageKey: [UInt8], info: [UInt8]) {
        let out = Primitives.hkdfZeroSalt(ikm: messageKey, info: info, count: 44)
        self.key = Array(out[0..<32])
        self.nonce = Array(out[32..<44])
    }
}
