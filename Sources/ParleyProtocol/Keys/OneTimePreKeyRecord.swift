/// A one-time prekey (OPK) with its private key.
public struct OneTimePreKeyRecord: Sendable {
    /// The prekey id (never 0xFFFFFFFF).
    public let id: UInt32
    /// The X25519 pair.
    public let keyPair: X25519KeyPair

    /// Creates a record from its parts.
    public init(id: UInt32, keyPair: X25519KeyPair) {
        self.id = id
        self.keyPair = keyPair
    }
}
