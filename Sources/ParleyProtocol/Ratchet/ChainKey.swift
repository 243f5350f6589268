/// A symmetric-ratchet chain key and the index of the next message key it yields (KDF_CK).
public struct ChainKey: Sendable, Equatable {
    /// The 32-byte chain key.
    public let key: [UInt8]
    /// How many message keys this chain has produced so far.
    public let index: UInt32

    /// Creates a chain key at `index`.
    public init(key: [UInt8], index: UInt32) {
        self.key = key
        self.index = index
    }

    /// The message key for `index`: HMAC-SHA256(ck, 0x01).
    public var messageKey: [UInt8] { Primitives.hmac(key: key, byte: 0x01) }

    /// The chain key for `index + 1`: HMAC-SHA256(ck, 0x02).
    public var next: ChainKey { ChainKey(key: Primitives.hmac(key: key, byte: 0x02), index: index &+ 1) }

    /// KDF_CK in one go: this index's message key and the next chain key.
    public func step() -> (messageKey: [UInt8], next: ChainKey) {
        let (messageKey, nextKey) = Primitives.hmacPair(key: key)
        return (messageKey, ChainKey(key: nextKey, index: index &+ 1))
    }
}
