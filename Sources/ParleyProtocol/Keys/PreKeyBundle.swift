/// What Alice fetches to open a session with one of Bob's devices (docs/PROTOCOL.md §3).
public struct PreKeyBundle: Sendable, Equatable {
    /// Bob's Ed25519 identity key.
    public let identityKey: [UInt8]
    /// The signed prekey id.
    public let signedPreKeyId: UInt32
    /// The signed prekey (X25519).
    public let signedPreKey: [UInt8]
    /// Signature over `0x05 || signedPreKey`.
    public let signedPreKeySignature: [UInt8]
    /// The one-time prekey id, if the server had one left.
    public let oneTimePreKeyId: UInt32?
    /// The one-time prekey (X25519), if the server had one left.
    public let oneTimePreKey: [UInt8]?
    /// The post-quantum prekey id.
    public let pqPreKeyId: UInt32
    /// The ML-KEM-768 public key (1184 bytes).
    public let pqPreKey: [UInt8]
    /// Signature over `0x0A || pqPreKey`.
    public let pqPreKeySignature: [UInt8]

    /// Creates a bundle.
    public init(
        identityKey: [UInt8], signedPreKeyId: UInt32, signedPreKey: [UInt8], signedPreKeySignature: [UInt8],
        oneTimePreKeyId: UInt32?, oneTimePreKey: [UInt8]?, pqPreKeyId: UInt32, pqPreKey: [UInt8],
        pqPreKeySignature: [UInt8]
    ) {
        self.identityKey = identityKey
        self.signedPreKeyId = signedPreKeyId
        self.signedPreKey = signedPreKey
        self.signedPreKeySignature = signedPreKeySignature
        self.oneTimePreKeyId = oneTimePreKeyId
        self.oneTimePreKey = oneTimePreKey
        self.pqPreKeyId = pqPreKeyId
        self.pqPreKey = pqPreKey
        self.pqPreKeySignature = pqPreKeySignature
    }

    /// The bundle a device publishes from its own records.
    public init(
        identity: IdentityKeyPair, signedPreKey: SignedPreKeyRecord, oneTimePreKey: OneTimePreKeyRecord?,
        pqPreKey: PQPreKeyRecord
    ) {
        self.init(
            identityKey: identity.publicKey, signedPreKeyId: signedPreKey.id,
            signedPreKey: signedPreKey.keyPair.publicKey, signedPreKeySignature: signedPreKey.signature,
            oneTimePreKeyId: oneTimePreKey?.id, oneTimePreKey: oneTimePreKey?.keyPair.publicKey,
            pqPreKeyId: pqPreKey.id, pqPreKey: pqPreKey.publicKey, pqPreKeySignature: pqPreKey.signature)
    }
}
