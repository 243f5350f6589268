import Crypto

/// The 32-byte AES-256-GCM key a sharer uses for format v2; followers hold a copy.
public struct LocationKey: Sendable {
    /// The AES key.
    let symmetricKey: SymmetricKey

    /// The key from exactly 32 raw bytes.
    public init(bytes: some Collection<UInt8>) throws(LocationError) {
        guard bytes.count == 32 else { throw .invalidKey("must be 32 bytes, got \(bytes.count)") }
        symmetricKey = SymmetricKey(data: Array(bytes))
    }

    /// A fresh random key (a new route owner, or a rotation after revoking a follower).
    public static func random() -> LocationKey {
        // 32 bytes by construction, so the throwing initialiser cannot fail.
        try! LocationKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// The key as base64url without padding (43 characters), the form `parley://location` links carry.
    public var base64URL: String {
        symmetricKey.withUnsafeBytes { Base64.encodeURL($0) }
    }

    /// The key from base64url without padding.
    public init(base64URL: String) throws(LocationError) {
        guard let bytes = Base64.decodeURL(base64URL) else { throw .invalidKey("not base64url") }
        try self.init(bytes: bytes)
    }

    /// The raw key bytes, for delivering the key inside an end-to-end encrypted message.
    public var bytes: [UInt8] { symmetricKey.withUnsafeBytes { Array($0) } }
}
