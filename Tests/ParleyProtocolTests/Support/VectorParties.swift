import Crypto
import ParleyCrypto
@testable import ParleyProtocol

/// The fixed keys and random streams all vector files are made from.
///
/// Every key is drawn from `DeterministicRandomSource("parley-vectors/<who>/keys")`, and every
/// protocol operation of a party draws from `DeterministicRandomSource("parley-vectors/<who>/random")`.
struct VectorParties {
    static let aliceAddress = ProtocolAddress(accountId: "alice", deviceId: 1)
    static let bobAddress = ProtocolAddress(accountId: "bob", deviceId: 1)
    static let createdAt: UInt64 = 1_767_225_600  // 2026-01-01T00:00:00Z

    static func seed(_ who: String, _ purpose: String) -> [UInt8] { Array("parley-vectors/\(who)/\(purpose)".utf8) }

    let aliceIdentity: IdentityKeyPair
    let bobIdentity: IdentityKeyPair
    let signedPreKey: SignedPreKeyRecord
    let oneTimePreKey: OneTimePreKeyRecord
    let pqPreKey: PQPreKeyRecord
    let aliceRandom = DeterministicRandomSource(seed: seed("alice", "random"))
    let bobRandom = DeterministicRandomSource(seed: seed("bob", "random"))

    init() {
        let aliceKeys = DeterministicRandomSource(seed: Self.seed("alice", "keys"))
        let bobKeys = DeterministicRandomSource(seed: Self.seed("bob", "keys"))
        aliceIdentity = IdentityKeyPair(random: aliceKeys)
        bobIdentity = IdentityKeyPair(random: bobKeys)
        signedPreKey = .generate(id: 0x0000_0101, identity: bobIdentity, now: Self.createdAt, random: bobKeys)
        oneTimePreKey = OneTimePreKeyRecord(id: 0x0000_0202, keyPair: X25519KeyPair(random: bobKeys))
        pqPreKey = .generate(id: 0x0000_0303, identity: bobIdentity, now: Self.createdAt, random: bobKeys)
    }

    func bundle(withOneTimePreKey: Bool) -> PreKeyBundle {
        PreKeyBundle(
            identity: bobIdentity, signedPreKey: signedPreKey, oneTimePreKey: withOneTimePreKey ? oneTimePreKey : nil,
            pqPreKey: pqPreKey)
    }

    func aliceStores() -> ProtocolStores { .inMemory(identity: aliceIdentity) }

    func bobStores() -> ProtocolStores {
        let stores = ProtocolStores.inMemory(identity: bobIdentity)
        try! stores.signedPreKeys.storeSignedPreKey(signedPreKey)
        try! stores.preKeys.storePreKey(oneTimePreKey)
        try! stores.pqPreKeys.storePQPreKey(pqPreKey)
        return stores
    }

    /// The recorded ML-KEM encapsulation, or a real one when there is no file yet.
    static func kem(recorded: (ciphertext: String, sharedSecret: String)?, to key: [UInt8]) throws -> PinnedKEMEncapsulator {
        if let recorded {
            return PinnedKEMEncapsulator(ciphertext: [UInt8](hex: recorded.ciphertext), sharedSecret: [UInt8](hex: recorded.sharedSecret))
        }
        let real = try SystemKEMEncapsulator().encapsulate(to: try MLKEM768.PublicKey(rawRepresentation: key))
        return PinnedKEMEncapsulator(ciphertext: real.ciphertext, sharedSecret: real.sharedSecret)
    }
}
