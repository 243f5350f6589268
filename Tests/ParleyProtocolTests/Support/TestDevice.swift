import Crypto
import ParleyCrypto
@testable import ParleyProtocol

/// A KEM encapsulator that returns a recorded (CT, SS), so vectors are reproducible.
struct PinnedKEMEncapsulator: KEMEncapsulator {
    let ciphertext: [UInt8]
    let sharedSecret: [UInt8]

    func encapsulate(to publicKey: MLKEM768.PublicKey) throws -> (ciphertext: [UInt8], sharedSecret: [UInt8]) {
        (ciphertext, sharedSecret)
    }
}

/// One device with its keys and in-memory stores, as a test participant.
struct TestDevice {
    let address: ProtocolAddress
    let identity: IdentityKeyPair
    let stores: ProtocolStores
    let random: DeterministicRandomSource
    let signedPreKey: SignedPreKeyRecord
    let oneTimePreKeys: [OneTimePreKeyRecord]
    let pqPreKey: PQPreKeyRecord

    var sessions: SessionCipher { SessionCipher(stores: stores) }
    var groups: GroupCipher { GroupCipher(stores: stores, localAddress: address) }

    /// A device whose every key comes from `name`, so runs are reproducible.
    init(_ name: String, deviceId: UInt32 = 1, identity: IdentityKeyPair? = nil, opks: Int = 5) {
        let keys = DeterministicRandomSource(seed: Array("keys:\(name):\(deviceId)".utf8))
        self.address = ProtocolAddress(accountId: name, deviceId: deviceId)
        self.identity = identity ?? IdentityKeyPair(random: keys)
        self.random = DeterministicRandomSource(seed: Array("random:\(name):\(deviceId)".utf8))
        self.signedPreKey = SignedPreKeyRecord.generate(id: 1, identity: self.identity, now: 1_700_000_000, random: keys)
        self.oneTimePreKeys = PreKeyPolicy.oneTimePreKeys(firstId: 100, count: opks, random: keys)
        self.pqPreKey = PQPreKeyRecord.generate(id: 7, identity: self.identity, now: 1_700_000_000, random: keys)
        self.stores = .inMemory(identity: self.identity)
        try! stores.signedPreKeys.storeSignedPreKey(signedPreKey)
        try! stores.pqPreKeys.storePQPreKey(pqPreKey)
        for opk in oneTimePreKeys { try! stores.preKeys.storePreKey(opk) }
    }

    /// This device's bundle, with the one-time prekey at `opk` (or none).
    func bundle(opk: Int? = 0) -> PreKeyBundle {
        PreKeyBundle(
            identity: identity, signedPreKey: signedPreKey, oneTimePreKey: opk.map { oneTimePreKeys[$0] },
            pqPreKey: pqPreKey)
    }

    /// Starts a session to `other` (Alice's side).
    func connect(to other: TestDevice, opk: Int? = 0) throws {
        try sessions.startSession(with: other.address, bundle: other.bundle(opk: opk), random: random)
    }

    func send(_ text: String, to other: TestDevice) throws -> [UInt8] {
        try sessions.encrypt(Array(text.utf8), for: other.address, random: random).serialized
    }

    func receive(_ bytes: [UInt8], from other: TestDevice) throws -> String {
        String(decoding: try sessions.decrypt(bytes, from: other.address, random: random), as: UTF8.self)
    }

    /// The current record with `other`, serialised, to compare states.
    func snapshot(with other: TestDevice) -> [UInt8]? {
        (try? stores.sessions.loadSession(for: other.address))??.serialized
    }
}
