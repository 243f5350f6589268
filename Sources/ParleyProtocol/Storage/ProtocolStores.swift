/// The stores one device's protocol operations need, passed in as one value.
public struct ProtocolStores: Sendable {
    /// Our identity and the identities we trust.
    public let identities: any IdentityKeyStore
    /// Sessions by remote device.
    public let sessions: any SessionStore
    /// One-time prekeys.
    public let preKeys: any PreKeyStore
    /// Signed prekeys.
    public let signedPreKeys: any SignedPreKeyStore
    /// Post-quantum prekeys.
    public let pqPreKeys: any PQPreKeyStore
    /// Group sender keys.
    public let senderKeys: any SenderKeyStore

    /// Groups the stores.
    public init(
        identities: any IdentityKeyStore, sessions: any SessionStore, preKeys: any PreKeyStore,
        signedPreKeys: any SignedPreKeyStore, pqPreKeys: any PQPreKeyStore, senderKeys: any SenderKeyStore
    ) {
        self.identities = identities
        self.sessions = sessions
        self.preKeys = preKeys
        self.signedPreKeys = signedPreKeys
        self.pqPreKeys = pqPreKeys
        self.senderKeys = senderKeys
    }

    /// Fresh in-memory stores for `identity`.
    public static func inMemory(identity: IdentityKeyPair) -> ProtocolStores {
        ProtocolStores(
            identities: InMemoryIdentityKeyStore(identity: identity), sessions: InMemorySessionStore(),
            preKeys: InMemoryPreKeyStore(), signedPreKeys: InMemorySignedPreKeyStore(),
            pqPreKeys: InMemoryPQPreKeyStore(), senderKeys: InMemorySenderKeyStore())
    }
}
