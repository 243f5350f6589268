import Crypto
import Foundation
import ParleyCrypto
import ParleyProtocol
import Testing

/// Replays `Vectors/python-reference.json`, a scenario made by an independent Python implementation
/// written only from docs/PROTOCOL.md (`scripts/vectors/parley_protocol_reference.py`; the JSON
/// schema is documented there). Python is provenance only: these tests read the JSON.
///
/// Each party is replayed on its own (its own steps, the other party's bytes taken from the file),
/// so a divergence on one side does not hide whether the other side still agrees.
@Suite("Python reference scenario")
struct PythonReferenceTests {
    static let vector: PythonVector = try! Vectors.load("python-reference")

    // MARK: Keys and PQXDH inputs

    @Test("keys made from the Python seeds have the Python public keys and signatures")
    func keys() throws {
        let v = Self.vector
        let alice = try IdentityKeyPair(seed: [UInt8](hex: v.alice.identitySeed))
        #expect(alice.publicKey.hex == v.alice.identityPublic)
        let bob = try IdentityKeyPair(seed: [UInt8](hex: v.bob.identitySeed))
        #expect(bob.publicKey.hex == v.bob.identityPublic)

        let spk = try X25519KeyPair(privateKeyBytes: [UInt8](hex: v.bob.signedPreKey!.privateKey))
        #expect(spk.publicKey.hex == v.bob.signedPreKey!.publicKey)
        for opk in v.bob.oneTimePreKeys! {
            #expect(try X25519KeyPair(privateKeyBytes: [UInt8](hex: opk.privateKey)).publicKey.hex == opk.publicKey)
        }
        let pq = v.bob.pqPreKey!
        let pqRecord = try PQPreKeyRecord(
            id: pq.id, createdAt: 0, seed: [UInt8](hex: pq.seed), signature: [UInt8](hex: pq.signature))
        #expect(pqRecord.publicKey.hex == pq.publicKey)

        // Prekey signatures (§3) verify under Bob's identity key.
        let ik = try Curve25519.Signing.PublicKey(rawRepresentation: bob.publicKey)
        #expect(ik.isValidSignature([UInt8](hex: v.bob.signedPreKey!.signature!), for: [0x05] + spk.publicKey))
        #expect(ik.isValidSignature([UInt8](hex: pq.signature), for: [0x0A] + pqRecord.publicKey))
    }

    @Test("the pinned ML-KEM ciphertext decapsulates to the pinned shared secret")
    func pinnedEncapsulation() throws {
        let v = Self.vector
        let key = try MLKEM768.PrivateKey(seedRepresentation: [UInt8](hex: v.bob.pqPreKey!.seed), publicKey: nil)
        let secret = try key.decapsulate([UInt8](hex: v.pqxdh.ciphertext))
        #expect(secret.withUnsafeBytes { Array($0) }.hex == v.pqxdh.sharedSecret)
    }

    // MARK: 1:1 conversation

    @Test("Swift Alice reproduces every Alice step: wire bytes, plaintexts, records")
    func aliceSide() throws {
        try replay(party: "alice")
    }

    @Test("Swift Bob reproduces every Bob step: decrypts Alice's Python messages, same bytes and records")
    func bobSide() throws {
        try replay(party: "bob")
    }

    /// Replays the steps of one party in order against the Swift implementation.
    func replay(party: String) throws {
        let v = Self.vector
        let alice = try Device(v.alice)
        let bob = try Device(v.bob)
        let me = party == "alice" ? alice : bob
        let peer = party == "alice" ? bob : alice

        if party == "alice" {
            let spk = v.bob.signedPreKey!, pq = v.bob.pqPreKey!
            let opk = v.bob.oneTimePreKeys!.first { $0.id == v.pqxdh.opkId }!
            let bundle = PreKeyBundle(
                identityKey: [UInt8](hex: v.bob.identityPublic), signedPreKeyId: spk.id,
                signedPreKey: [UInt8](hex: spk.publicKey), signedPreKeySignature: [UInt8](hex: spk.signature!),
                oneTimePreKeyId: opk.id, oneTimePreKey: [UInt8](hex: opk.publicKey), pqPreKeyId: pq.id,
                pqPreKey: [UInt8](hex: pq.publicKey), pqPreKeySignature: [UInt8](hex: pq.signature))
            try alice.sessions.startSession(
                with: bob.address, bundle: bundle, random: alice.random,
                encapsulator: PythonPinnedKEM(
                    ciphertext: [UInt8](hex: v.pqxdh.ciphertext), sharedSecret: [UInt8](hex: v.pqxdh.sharedSecret)))
        }

        for step in v.conversation where step.party == party {
            let label = "step \(step.step) (\(step.party) \(step.op) \(step.message))"
            let wire = [UInt8](hex: step.wire)
            switch (step.op, step.expect) {
            case ("encrypt", _):
                let out = try me.sessions.encrypt([UInt8](hex: step.plaintext!), for: peer.address, random: me.random)
                #expect(out.serialized.hex == step.wire, "\(label): wire bytes")
            case ("decrypt", "ok"):
                let plaintext = try me.sessions.decrypt(wire, from: peer.address, random: me.random)
                #expect(plaintext.hex == step.plaintext!, "\(label): plaintext")
            default:
                let before = try me.record(with: peer)
                #expect(throws: (any Error).self, "\(label): must be rejected") {
                    _ = try me.sessions.decrypt(wire, from: peer.address, random: me.random)
                }
                #expect(try me.record(with: peer) == before, "\(label): a rejected message changes nothing")
            }
            #expect(try me.record(with: peer)?.hex == step.recordAfter, "\(label): session record after the step")
            // Exactly as many random bytes drawn as Python drew (§5.4: even for a rejected message).
            #expect(me.random.count == step.randomDrawn, "\(label): random bytes drawn")
        }
    }

    // MARK: Sender keys

    @Test("Swift sender reproduces the distribution message and the group messages")
    func groupSender() throws {
        let v = Self.vector, g = v.group
        let alice = try Device(v.alice)
        let random = DeterministicRandomSource(seed: [UInt8](hex: g.randomSeed))
        let distribution = try alice.groups.startNewChain(groupId: g.groupId, random: random)
        #expect(distribution.serialized.hex == g.distribution)
        for message in g.messages {
            let out = try alice.groups.encrypt([UInt8](hex: message.plaintext), groupId: g.groupId, random: random)
            let expected = [UInt8](hex: message.wire)
            // Everything but the signature must match byte for byte; the signature must verify.
            #expect(out.signedBytes.hex == Array(expected.dropLast(64)).hex, "\(message.message): signed bytes")
            let signer = try Curve25519.Signing.PublicKey(rawRepresentation: [UInt8](hex: g.signingPublic))
            #expect(signer.isValidSignature(out.signature, for: out.signedBytes), "\(message.message): signature")
            #if os(Linux)
                // swift-crypto on Linux signs deterministically (RFC 8032), like Python.
                #expect(out.serialized.hex == message.wire, "\(message.message): wire bytes")
            #endif
        }
        let record = try alice.stores.senderKeys.loadSenderKey(groupId: g.groupId, sender: alice.address)
        #expect(record?.serialized.hex == g.senderRecordAfter)
    }

    @Test("Swift receiver decrypts the Python group messages, out of order, and rejects the bad ones")
    func groupReceiver() throws {
        let v = Self.vector, g = v.group
        let bob = try Device(v.bob)
        let sender = try ProtocolAddress(accountId: g.sender.accountId, deviceId: g.sender.deviceId)
        try bob.groups.process(
            SenderKeyDistributionMessage(serialized: [UInt8](hex: g.distribution)), groupId: g.groupId, from: sender)
        for entry in g.receive {
            let wire = [UInt8](hex: entry.wire)
            if entry.expect == "ok" {
                let plaintext = try bob.groups.decrypt(wire, groupId: g.groupId, from: sender)
                #expect(plaintext.hex == entry.plaintext!, "\(entry.message)")
            } else {
                #expect(throws: (any Error).self, "\(entry.message) must be rejected") {
                    _ = try bob.groups.decrypt(wire, groupId: g.groupId, from: sender)
                }
            }
        }
        let record = try bob.stores.senderKeys.loadSenderKey(groupId: g.groupId, sender: sender)
        #expect(record?.serialized.hex == g.receiverRecordAfter)
    }
}

// MARK: - Replay helpers

/// A (CT, SS) recorded by the Python generator, so Swift's PQXDH uses the same encapsulation.
private struct PythonPinnedKEM: KEMEncapsulator {
    let ciphertext: [UInt8]
    let sharedSecret: [UInt8]

    func encapsulate(to publicKey: MLKEM768.PublicKey) throws -> (ciphertext: [UInt8], sharedSecret: [UInt8]) {
        (ciphertext, sharedSecret)
    }
}

/// Counts the bytes a random source gives out.
private final class CountingRandom: RandomSource, @unchecked Sendable {
    let base: DeterministicRandomSource
    private(set) var count = 0

    init(seed: [UInt8]) { base = DeterministicRandomSource(seed: seed) }

    func bytes(_ n: Int) -> [UInt8] {
        count += n
        return base.bytes(n)
    }
}

/// One party of the Python scenario, with the Python key material in in-memory stores.
private struct Device {
    let address: ProtocolAddress
    let stores: ProtocolStores
    let random: CountingRandom
    var sessions: SessionCipher { SessionCipher(stores: stores) }
    var groups: GroupCipher { GroupCipher(stores: stores, localAddress: address) }

    init(_ party: PythonVector.Party) throws {
        address = try ProtocolAddress(accountId: party.address.accountId, deviceId: party.address.deviceId)
        let identity = try IdentityKeyPair(seed: [UInt8](hex: party.identitySeed))
        stores = .inMemory(identity: identity)
        random = CountingRandom(seed: [UInt8](hex: party.randomSeed))
        if let spk = party.signedPreKey {
            try stores.signedPreKeys.storeSignedPreKey(
                SignedPreKeyRecord(
                    id: spk.id, createdAt: 1_700_000_000,
                    keyPair: X25519KeyPair(privateKeyBytes: [UInt8](hex: spk.privateKey)),
                    signature: [UInt8](hex: spk.signature!)))
        }
        for opk in party.oneTimePreKeys ?? [] {
            try stores.preKeys.storePreKey(
                OneTimePreKeyRecord(id: opk.id, keyPair: X25519KeyPair(privateKeyBytes: [UInt8](hex: opk.privateKey))))
        }
        if let pq = party.pqPreKey {
            try stores.pqPreKeys.storePQPreKey(
                PQPreKeyRecord(
                    id: pq.id, createdAt: 1_700_000_000, seed: [UInt8](hex: pq.seed),
                    signature: [UInt8](hex: pq.signature)))
        }
    }

    /// The serialised session record with `peer` (§9.2 kind 0x10), if any.
    func record(with peer: Device) throws -> [UInt8]? {
        try stores.sessions.loadSession(for: peer.address)?.serialized
    }
}

// MARK: - JSON model (schema: scripts/vectors/parley_protocol_reference.py)

struct PythonVector: Decodable {
    struct Address: Decodable {
        let accountId: String
        let deviceId: UInt32
    }

    struct KeyPair: Decodable {
        let id: UInt32
        let privateKey: String
        let publicKey: String
        let signature: String?

        enum CodingKeys: String, CodingKey {
            case id, signature
            case privateKey = "private"
            case publicKey = "public"
        }
    }

    struct PQKey: Decodable {
        let id: UInt32
        let seed: String
        let publicKey: String
        let signature: String

        enum CodingKeys: String, CodingKey {
            case id, seed, signature
            case publicKey = "public"
        }
    }

    struct Party: Decodable {
        let address: Address
        let identitySeed: String
        let identityPublic: String
        let randomSeed: String
        let signedPreKey: KeyPair?
        let oneTimePreKeys: [KeyPair]?
        let pqPreKey: PQKey?
    }

    struct PQXDHInputs: Decodable {
        let opkId: UInt32
        let ciphertext: String
        let sharedSecret: String
    }

    struct Step: Decodable {
        let step: Int
        let party: String
        let op: String
        let message: String
        let plaintext: String?
        let wire: String
        let expect: String
        let randomDrawn: Int
        let recordAfter: String?
    }

    struct GroupMessageVector: Decodable {
        let message: String
        let iteration: UInt32
        let plaintext: String
        let wire: String
    }

    struct GroupReceive: Decodable {
        let message: String
        let wire: String
        let expect: String
        let plaintext: String?
    }

    struct Group: Decodable {
        let groupId: String
        let sender: Address
        let randomSeed: String
        let signingPublic: String
        let distribution: String
        let messages: [GroupMessageVector]
        let receive: [GroupReceive]
        let senderRecordAfter: String
        let receiverRecordAfter: String
    }

    let alice: Party
    let bob: Party
    let pqxdh: PQXDHInputs
    let conversation: [Step]
    let group: Group
}
