import Crypto
import ParleyCrypto

/// One Double Ratchet session with one remote device (docs/PROTOCOL.md §5.2).
///
/// A pure value: encrypting and decrypting mutate it, and decryption commits only on success.
public struct SessionState: Sendable {
    /// Which side of PQXDH this state was made on; decides the order of the associated data.
    public enum Role: UInt8, Sendable {
        /// Alice, who fetched a bundle and sent the first message.
        case initiator = 0x00
        /// Bob, who received the first message.
        case responder = 0x01
    }

    /// What Alice repeats in every message until Bob answers (docs/PROTOCOL.md §4.1).
    public struct PendingPreKey: Sendable, Equatable {
        /// The signed prekey used.
        public let signedPreKeyId: UInt32
        /// The one-time prekey used, or nil.
        public let oneTimePreKeyId: UInt32?
        /// The post-quantum prekey used.
        public let pqPreKeyId: UInt32
        /// The ML-KEM-768 ciphertext.
        public let kemCiphertext: [UInt8]
    }

    /// Our Ed25519 identity public key.
    public let localIdentityKey: [UInt8]
    /// Their Ed25519 identity public key.
    public let remoteIdentityKey: [UInt8]
    /// Which side we were in session setup.
    public let role: Role
    /// Alice's ephemeral public key EK_A; names the session so a re-sent prekey message finds it.
    public let baseKey: [UInt8]
    /// RK.
    var rootKey: RootKey
    /// DHs, our current ratchet pair.
    var sendingRatchetKey: X25519KeyPair
    /// DHr, their current ratchet public key.
    var remoteRatchetKey: [UInt8]?
    /// CKs with Ns as its index.
    var sendingChain: ChainKey?
    /// CKr with Nr as its index.
    var receivingChain: ChainKey?
    /// PN, the length of our previous sending chain.
    var previousCounter: UInt32
    /// Set on Alice's side until she decrypts a message in this session.
    public internal(set) var pendingPreKey: PendingPreKey?
    /// Keys for messages that were skipped over.
    var skippedKeys: SkippedMessageKeys

    /// Creates a state from its parts; `SessionState.initiator` and `.responder` are the usual entry points.
    init(
        localIdentityKey: [UInt8], remoteIdentityKey: [UInt8], role: Role, baseKey: [UInt8],
        rootKey: RootKey, sendingRatchetKey: X25519KeyPair, remoteRatchetKey: [UInt8]?,
        sendingChain: ChainKey?, receivingChain: ChainKey?, previousCounter: UInt32,
        pendingPreKey: PendingPreKey?, skippedKeys: SkippedMessageKeys
    ) {
        self.localIdentityKey = localIdentityKey
        self.remoteIdentityKey = remoteIdentityKey
        self.role = role
        self.baseKey = baseKey
        self.rootKey = rootKey
        self.sendingRatchetKey = sendingRatchetKey
        self.remoteRatchetKey = remoteRatchetKey
        self.sendingChain = sendingChain
        self.receivingChain = receivingChain
        self.previousCounter = previousCounter
        self.pendingPreKey = pendingPreKey
        self.skippedKeys = skippedKeys
    }

    /// Alice's start: DHs fresh, DHr = SPK_B, (RK, CKs) = KDF_RK(SK, DH(DHs, DHr)).
    static func initiator(
        sharedSecret: [UInt8], localIdentityKey: [UInt8], remoteIdentityKey: [UInt8], baseKey: [UInt8],
        remoteSignedPreKey: [UInt8], pendingPreKey: PendingPreKey, random: some RandomSource
    ) throws(ProtocolError) -> SessionState {
        let ratchet = X25519KeyPair(random: random)
        let (rootKey, chain) = RootKey(key: sharedSecret).step(
            dh: try Primitives.dh(ratchet.privateKey, remoteSignedPreKey))
        return SessionState(
            localIdentityKey: localIdentityKey, remoteIdentityKey: remoteIdentityKey, role: .initiator,
            baseKey: baseKey, rootKey: rootKey, sendingRatchetKey: ratchet, remoteRatchetKey: remoteSignedPreKey,
            sendingChain: chain, receivingChain: nil, previousCounter: 0, pendingPreKey: pendingPreKey,
            skippedKeys: SkippedMessageKeys())
    }

    /// Bob's start: DHs = SPK_B's pair, RK = SK, nothing else until the first message.
    static func responder(
        sharedSecret: [UInt8], localIdentityKey: [UInt8], remoteIdentityKey: [UInt8], baseKey: [UInt8],
        signedPreKey: X25519KeyPair
    ) -> SessionState {
        SessionState(
            localIdentityKey: localIdentityKey, remoteIdentityKey: remoteIdentityKey, role: .responder,
            baseKey: baseKey, rootKey: RootKey(key: sharedSecret), sendingRatchetKey: signedPreKey,
            remoteRatchetKey: nil, sendingChain: nil, receivingChain: nil, previousCounter: 0,
            pendingPreKey: nil, skippedKeys: SkippedMessageKeys())
    }

    /// AD = IK_A || IK_B, initiator first.
    public var associatedData: [UInt8] {
        role == .initiator ? localIdentityKey + remoteIdentityKey : remoteIdentityKey + localIdentityKey
    }

    /// Whether the state can encrypt (Bob's cannot until his first message arrives).
    public var canSend: Bool { sendingChain != nil }

    /// How many skipped message keys are kept.
    public var skippedKeyCount: Int { skippedKeys.count }
}
