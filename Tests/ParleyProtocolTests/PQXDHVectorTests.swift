import Crypto
import Foundation
import ParleyCrypto
import Testing
@testable import ParleyProtocol

/// `Vectors/pqxdh.json`: session setup with and without a one-time prekey, and refusals.
struct PQXDHVectorFile: Codable, Equatable {
    struct Keys: Codable, Equatable {
        var aliceIdentitySeed, aliceIdentityPublic, aliceIdentityX25519Public: String
        var bobIdentitySeed, bobIdentityPublic, bobIdentityX25519Public: String
        var spkId: UInt32
        var spkPrivate, spkPublic, spkSignature: String
        var opkId: UInt32
        var opkPrivate, opkPublic: String
        var pqspkId: UInt32
        var pqspkSeed, pqspkPublic, pqspkSignature: String
    }
    struct Case: Codable, Equatable {
        var name: String
        var useOneTimePreKey: Bool
        var aliceRandomSeed, bobRandomSeed: String
        var kemCiphertext, kemSharedSecret: String
        var ephemeralPublic, ikm, sharedSecret, associatedData: String
        var aliceRatchetPublic, plaintext, preKeyMessage: String
    }
    struct Invalid: Codable, Equatable {
        var name, preKeyMessage: String
    }
    var description: String
    var keys: Keys
    var cases: [Case]
    var invalidMessages: [Invalid]
    var invalidBundles: [[String: String]]
}

@Suite struct PQXDHVectorTests {
    static func generate(recorded: PQXDHVectorFile?) throws -> PQXDHVectorFile {
        let parties = VectorParties()
        let bob = parties.bobIdentity, alice = parties.aliceIdentity
        let keys = PQXDHVectorFile.Keys(
            aliceIdentitySeed: alice.seed.hex, aliceIdentityPublic: alice.publicKey.hex,
            aliceIdentityX25519Public: Array(alice.agreementKey.publicKey.rawRepresentation).hex,
            bobIdentitySeed: bob.seed.hex, bobIdentityPublic: bob.publicKey.hex,
            bobIdentityX25519Public: Array(bob.agreementKey.publicKey.rawRepresentation).hex,
            spkId: parties.signedPreKey.id, spkPrivate: parties.signedPreKey.keyPair.privateKeyBytes.hex,
            spkPublic: parties.signedPreKey.keyPair.publicKey.hex, spkSignature: parties.signedPreKey.signature.hex,
            opkId: parties.oneTimePreKey.id, opkPrivate: parties.oneTimePreKey.keyPair.privateKeyBytes.hex,
            opkPublic: parties.oneTimePreKey.keyPair.publicKey.hex, pqspkId: parties.pqPreKey.id,
            pqspkSeed: parties.pqPreKey.seed.hex, pqspkPublic: parties.pqPreKey.publicKey.hex,
            pqspkSignature: parties.pqPreKey.signature.hex)

        var cases: [PQXDHVectorFile.Case] = []
        for (index, useOPK) in [true, false].enumerated() {
            let name = useOPK ? "with-one-time-prekey" : "without-one-time-prekey"
            let aliceSeed = VectorParties.seed("alice", "random-\(name)")
            let random = DeterministicRandomSource(seed: aliceSeed)
            let old = recorded?.cases.count ?? 0 > index ? recorded!.cases[index] : nil
            let kem = try VectorParties.kem(
                recorded: old.map { ($0.kemCiphertext, $0.kemSharedSecret) }, to: parties.pqPreKey.publicKey)
            let bundle = parties.bundle(withOneTimePreKey: useOPK)
            let initiation = try PQXDH.initiation(identity: alice, bundle: bundle, random: random, encapsulator: kem)
            var record = SessionRecord(state: initiation.state)
            let plaintext = Array("Hello Bob, this is Alice (\(name)).".utf8)
            let message = try record.encrypt(plaintext, random: random)
            let parsed = try PreKeyMessage(serialized: message.serialized)
            cases.append(
                .init(
                    name: name, useOneTimePreKey: useOPK, aliceRandomSeed: aliceSeed.hex,
                    bobRandomSeed: VectorParties.seed("bob", "random-\(name)").hex,
                    kemCiphertext: kem.ciphertext.hex, kemSharedSecret: kem.sharedSecret.hex,
                    ephemeralPublic: parsed.baseKey.hex, ikm: try ikm(parties, parsed, useOPK).hex,
                    sharedSecret: initiation.sharedSecret.hex,
                    associatedData: initiation.state.associatedData.hex,
                    aliceRatchetPublic: parsed.message.header.ratchetKey.hex, plaintext: plaintext.hex,
                    preKeyMessage: message.serialized.hex))
        }

        let good = [UInt8](hex: cases[0].preKeyMessage)
        var invalid: [PQXDHVectorFile.Invalid] = []
        func add(_ name: String, _ edit: (inout [UInt8]) -> Void) {
            var bytes = good
            edit(&bytes)
            invalid.append(.init(name: name, preKeyMessage: bytes.hex))
        }
        add("unknown version 0x02") { $0[0] = 0x02 }
        add("unexpected type 0x03") { $0[1] = 0x03 }
        add("message-type byte 0x01 on a prekey layout") { $0[1] = 0x01 }
        for cut in [0, 1, 2, 34, 66, 78, 1165, 1166, 1207, good.count - 1] {
            add("truncated to \(cut) bytes") { $0 = Array($0[..<cut]) }
        }
        add("flipped bit in IK_A") { $0[2] ^= 0x01 }
        add("flipped bit in EK_A") { $0[40] ^= 0x10 }
        add("unknown signed prekey id") { $0[69] ^= 0x01 }
        add("unknown one-time prekey id") { $0[73] ^= 0x01 }
        add("unknown PQ prekey id") { $0[77] ^= 0x01 }
        add("flipped bit in KEM ciphertext") { $0[600] ^= 0x04 }
        add("flipped bit in inner header") { $0[1166 + 40] ^= 0x01 }
        add("flipped bit in ciphertext") { $0[1166 + 60] ^= 0x80 }
        add("flipped bit in tag") { $0[$0.count - 1] ^= 0x01 }
        add("trailing byte") { $0.append(0) }

        var badSPK = parties.signedPreKey.signature, badPQ = parties.pqPreKey.signature
        badSPK[10] ^= 1
        badPQ[10] ^= 1
        return PQXDHVectorFile(
            description:
                "Parley PQXDH v1 (docs/PROTOCOL.md §4). Alice draws EK_A (32) then DHs (32) then padding from DeterministicRandomSource(aliceRandomSeed); Bob draws 32 bytes for his first ratchet step from bobRandomSeed. (CT, SS) is a recorded real ML-KEM-768 encapsulation. Every invalidMessages entry must be rejected by a fresh Bob; every invalidBundles entry must be refused by Alice.",
            keys: keys, cases: cases, invalidMessages: invalid,
            invalidBundles: [
                ["name": "bad SPK signature", "spkSignature": badSPK.hex],
                ["name": "bad PQSPK signature", "pqspkSignature": badPQ.hex],
            ])
    }

    /// The HKDF input Bob computes, written out so an implementation can compare step by step.
    static func ikm(_ parties: VectorParties, _ message: PreKeyMessage, _ useOPK: Bool) throws -> [UInt8] {
        let aliceX = try IdentityKeyPair.agreementPublicKey(fromIdentityKey: message.identityKey)
        var ikm = [UInt8](repeating: 0xFF, count: 32)
        ikm += try Primitives.dh(parties.signedPreKey.keyPair.privateKey, aliceX)
        ikm += try Primitives.dh(parties.bobIdentity.agreementKey, message.baseKey)
        ikm += try Primitives.dh(parties.signedPreKey.keyPair.privateKey, message.baseKey)
        if useOPK { ikm += try Primitives.dh(parties.oneTimePreKey.keyPair.privateKey, message.baseKey) }
        ikm += try parties.pqPreKey.privateKey.decapsulate(message.kemCiphertext).withUnsafeBytes { Array($0) }
        return ikm
    }

    @Test func committedFileMatchesGenerator() throws {
        let recorded = try? Vectors.load("pqxdh", as: PQXDHVectorFile.self)
        let generated = try Self.generate(recorded: recorded)
        if Vectors.shouldWrite { try Vectors.write(generated, name: "pqxdh") }
        let committed = try #require(recorded, "run with PARLEY_WRITE_VECTORS=1 to create the file")
        #expect(try Vectors.encode(generated) == Vectors.encode(committed))
    }

    @Test func bobDecryptsCommittedMessagesAndRejectsInvalidOnes() throws {
        let file = try Vectors.load("pqxdh", as: PQXDHVectorFile.self)
        let parties = VectorParties()
        #expect(file.keys.pqspkPublic == parties.pqPreKey.publicKey.hex)
        for vector in file.cases {
            // The recorded encapsulation really belongs to the PQSPK.
            let ss = try parties.pqPreKey.privateKey.decapsulate([UInt8](hex: vector.kemCiphertext))
            #expect(ss.withUnsafeBytes { Array($0) }.hex == vector.kemSharedSecret)
            #expect(PQXDH.sharedSecret(ikm: [UInt8](hex: vector.ikm)).hex == vector.sharedSecret)
            let stores = parties.bobStores()
            let message = try PreKeyMessage(serialized: [UInt8](hex: vector.preKeyMessage))
            let response = try PQXDH.response(
                identity: parties.bobIdentity, message: message, signedPreKey: parties.signedPreKey,
                oneTimePreKey: vector.useOneTimePreKey ? parties.oneTimePreKey : nil, pqPreKey: parties.pqPreKey)
            #expect(response.sharedSecret.hex == vector.sharedSecret)
            let plaintext = try SessionCipher(stores: stores).decrypt(
                [UInt8](hex: vector.preKeyMessage), from: VectorParties.aliceAddress,
                random: DeterministicRandomSource(seed: [UInt8](hex: vector.bobRandomSeed)))
            #expect(plaintext.hex == vector.plaintext)
            #expect(try stores.preKeys.loadPreKey(id: parties.oneTimePreKey.id) == nil || !vector.useOneTimePreKey)
        }
        for invalid in file.invalidMessages {
            let stores = parties.bobStores()
            #expect(throws: (any Error).self, "\(invalid.name)") {
                _ = try SessionCipher(stores: stores).decrypt(
                    [UInt8](hex: invalid.preKeyMessage), from: VectorParties.aliceAddress, random: parties.bobRandom)
            }
            #expect(try stores.sessions.loadSession(for: VectorParties.aliceAddress) == nil)
            #expect(try stores.preKeys.loadPreKey(id: parties.oneTimePreKey.id) != nil)
        }
        for invalid in file.invalidBundles {
            let good = parties.bundle(withOneTimePreKey: true)
            let bundle = PreKeyBundle(
                identityKey: good.identityKey, signedPreKeyId: good.signedPreKeyId, signedPreKey: good.signedPreKey,
                signedPreKeySignature: invalid["spkSignature"].map { [UInt8](hex: $0) } ?? good.signedPreKeySignature,
                oneTimePreKeyId: good.oneTimePreKeyId, oneTimePreKey: good.oneTimePreKey, pqPreKeyId: good.pqPreKeyId,
                pqPreKey: good.pqPreKey,
                pqPreKeySignature: invalid["pqspkSignature"].map { [UInt8](hex: $0) } ?? good.pqPreKeySignature)
            #expect(throws: ProtocolError.invalidSignature) {
                _ = try PQXDH.initiate(identity: parties.aliceIdentity, bundle: bundle, random: parties.aliceRandom)
            }
        }
    }

    @Test func everyTruncationOfTheCommittedMessageIsRejected() throws {
        let file = try Vectors.load("pqxdh", as: PQXDHVectorFile.self)
        let bytes = [UInt8](hex: file.cases[0].preKeyMessage)
        for cut in 0..<bytes.count {
            #expect(throws: ProtocolError.self) { _ = try PreKeyMessage(serialized: Array(bytes[..<cut])) }
        }
    }
}
