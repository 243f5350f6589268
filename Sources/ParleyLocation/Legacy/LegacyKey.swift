import Crypto

/// A Berry Picker Tracker key: 16 bytes (AES-128) or 32 bytes (AES-256), shared as standard base64.
public struct LegacyKey: Sendable {
    /// The AES key.
    let symmetricKey: SymmetricKey

    /// The key from its raw bytes; only 16 or 32 bytes are used by the app.
    public init(bytes: some Collection<UInt8>) throws(LocationError) {
        guard bytes.count == 16 || bytes.count == 32 else {
            throw .invalidKey("must be 16 or 32 bytes, got \(bytes.count)")
        }
        symmetricKey = SymmetricKey(data: Array(bytes))
    }

    /// The key from the standard base64 text the app stores and puts in links (24 or 44 characters).
    public init(base64: String) throws(LocationError) {
        guard let bytes = Base64.decodeStandard(base64) else {
            throw .invalidKey("not standard base64")
        }
        try self.init(bytes: bytes)
    }

    /// A fresh random 16-byte key, as the app makes for a new user.
    public static func random(byteCount: Int = 16) throws(LocationError) -> LegacyKey {
        try LegacyKey(bytes: SymmetricKey(size: SymmetricKeySize(bitCount: byteCount * 8)).withUnsafeBytes { Array($0) })
    }

    /// The key as standard base64, the form links carry.
    public var base64: String {
        symmetricKey.withUnsafeBytes { Base64.encodeStandard($0) }
    }

    /// Key length in bytes (16 or 32).
    public var byteCount: Int { symmetricKey.bitCount / 8 }
}
