import ParleyCrypto
import ParleyProtocol

extension FuzzTarget {
    static let sessionDecryptTargets: [FuzzTarget] = [
        FuzzTarget("protocol-session-decrypt", "no ratchet or prekey message decrypts on an established session, and a refused one leaves the session and prekey stores unchanged", prepare: { _ = SessionFixture.shared }, run: sessionDecrypt),
    ]
}

/// Bob with a session Alice opened (one real message exchanged) and prekeys left: where a hostile server's
/// message lands.
private struct SessionFixture: Sendable {
    static let shared = SessionFixture()

    let alice: ProtocolAddress
    let bob: SessionCipher
    let bobSessions: InMemorySessionStore
    let bobPreKeys: InMemoryPreKeyStore

    private init() {
        let random = SystemRandomSource()
        alice = try! ProtocolAddress(accountId: "alice@fuzz", deviceId: 1)
        let bobAddress = try! ProtocolAddress(accountId: "bob@fuzz", deviceId: 1)
        let bobIdentity = try! IdentityKeyPair(seed: [UInt8](repeating: 3, count: 32))
        let signedPreKey = SignedPreKeyRecord.generate(id: 1, identity: bobIdentity, now: 1_800_000_000, random: random)
        let oneTimePreKeys = PreKeyPolicy.oneTimePreKeys(firstId: 100, count: 3, random: random)
        let pqPreKey = PQPreKeyRecord.generate(id: 7, identity: bobIdentity, now: 1_800_000_000, random: random)
        let base = ProtocolStores.inMemory(identity: bobIdentity)
        bobSessions = InMemorySessionStore()
        bobPreKeys = InMemoryPreKeyStore(oneTimePreKeys)
        let bobStores = ProtocolStores(
            identities: base.identities, sessions: bobSessions, preKeys: bobPreKeys,
            signedPreKeys: InMemorySignedPreKeyStore([signedPreKey]), pqPreKeys: InMemoryPQPreKeyStore([pqPreKey]),
            senderKeys: base.senderKeys)
        bob = SessionCipher(stores: bobStores)

        let aliceCipher = SessionCipher(stores: .inMemory(identity: try! IdentityKeyPair(seed: [UInt8](repeating: 4, count: 32))))
        let bundle = PreKeyBundle(identity: bobIdentity, signedPreKey: signedPreKey, oneTimePreKey: oneTimePreKeys[0], pqPreKey: pqPreKey)
        try! aliceCipher.startSession(with: bobAddress, bundle: bundle, random: random)
        let first = try! aliceCipher.encrypt(Array("hello".utf8), for: bobAddress, random: random)
        _ = try! bob.decrypt(first.serialized, from: alice, random: random)
    }
}

private func sessionDecrypt(_ bytes: [UInt8]) {
    let fixture = SessionFixture.shared
    let sessions = fixture.bobSessions.serialized
    let preKeys = fixture.bobPreKeys.serialized
    require((try? fixture.bob.decrypt(bytes, from: fixture.alice, random: SystemRandomSource())) == nil,
            "a message decrypted on a session the fuzzer does not know")
    require(fixture.bobSessions.serialized == sessions, "a refused message changed the session store")
    require(fixture.bobPreKeys.serialized == preKeys, "a refused message changed the prekey store")
}
