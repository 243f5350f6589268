import Crypto
import ParleyCrypto
import Testing
@testable import ParleyProtocol

@Suite struct SessionTests {
    @Test func aliceAndBobTalkBothWays() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let first = try alice.send("hello bob", to: bob)
        #expect(first[1] == MessageType.preKeyMessage.rawValue)
        #expect(try bob.receive(first, from: alice) == "hello bob")
        let reply = try bob.send("hi alice", to: alice)
        #expect(reply[1] == MessageType.message.rawValue)
        #expect(try alice.receive(reply, from: bob) == "hi alice")
        // Alice has heard from Bob, so she stops sending prekey messages.
        let next = try alice.send("how are you", to: bob)
        #expect(next[1] == MessageType.message.rawValue)
        #expect(try bob.receive(next, from: alice) == "how are you")
    }

    @Test func prekeyMessagesRepeatUntilBobAnswersAndReuseOneSession() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let m1 = try alice.send("one", to: bob), m2 = try alice.send("two", to: bob)
        #expect(m2[1] == MessageType.preKeyMessage.rawValue)
        #expect(try bob.receive(m2, from: alice) == "two")
        #expect(try bob.receive(m1, from: alice) == "one")
        #expect(try bob.stores.sessions.loadSession(for: alice.address)?.states.count == 1)
    }

    @Test func usedOneTimePreKeyIsDeletedAndReplayIsRejected() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let first = try alice.send("once", to: bob)
        #expect(try bob.receive(first, from: alice) == "once")
        #expect(try bob.stores.preKeys.loadPreKey(id: 100) == nil)
        let before = bob.snapshot(with: alice)
        #expect(throws: ProtocolError.decryptionFailed) { try bob.receive(first, from: alice) }
        #expect(bob.snapshot(with: alice) == before)
        // Even with the session gone, the replay cannot rebuild it: the OPK no longer exists.
        let fresh = TestDevice("bob")
        try fresh.stores.preKeys.removePreKey(id: 100)
        #expect(throws: ProtocolError.unknownPreKey(kind: "one-time", id: 100)) { try fresh.receive(first, from: alice) }
        #expect(fresh.snapshot(with: alice) == nil)
    }

    @Test func sessionWithoutOneTimePreKeyWorks() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob, opk: nil)
        let first = try alice.send("no opk", to: bob)
        let parsed = try PreKeyMessage(serialized: first)
        #expect(parsed.oneTimePreKeyId == nil)
        #expect(try bob.receive(first, from: alice) == "no opk")
    }

    @Test func badPrekeySignaturesAbortSetup() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        let good = bob.bundle()
        var badSPK = good.signedPreKeySignature; badSPK[5] ^= 1
        var badPQ = good.pqPreKeySignature; badPQ[60] ^= 0x80
        let bundles = [
            PreKeyBundle(
                identityKey: good.identityKey, signedPreKeyId: 1, signedPreKey: good.signedPreKey,
                signedPreKeySignature: badSPK, oneTimePreKeyId: 100, oneTimePreKey: good.oneTimePreKey,
                pqPreKeyId: 7, pqPreKey: good.pqPreKey, pqPreKeySignature: good.pqPreKeySignature),
            PreKeyBundle(
                identityKey: good.identityKey, signedPreKeyId: 1, signedPreKey: good.signedPreKey,
                signedPreKeySignature: good.signedPreKeySignature, oneTimePreKeyId: 100,
                oneTimePreKey: good.oneTimePreKey, pqPreKeyId: 7, pqPreKey: good.pqPreKey, pqPreKeySignature: badPQ),
        ]
        for bundle in bundles {
            #expect(throws: ProtocolError.invalidSignature) {
                try alice.sessions.startSession(with: bob.address, bundle: bundle, random: alice.random)
            }
        }
        #expect(try !alice.sessions.hasSession(with: bob.address))
    }

    @Test func lowOrderPrekeyIsRefused() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        let zero = [UInt8](repeating: 0, count: 32)
        let sig = bob.identity.signPreKey(prefix: 0x05, publicKey: zero)
        let good = bob.bundle()
        let bundle = PreKeyBundle(
            identityKey: good.identityKey, signedPreKeyId: 1, signedPreKey: zero, signedPreKeySignature: sig,
            oneTimePreKeyId: nil, oneTimePreKey: nil, pqPreKeyId: 7, pqPreKey: good.pqPreKey,
            pqPreKeySignature: good.pqPreKeySignature)
        #expect(throws: ProtocolError.weakKeyAgreement) {
            try alice.sessions.startSession(with: bob.address, bundle: bundle, random: alice.random)
        }
    }

    @Test func changedIdentityIsRefused() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let impostor = TestDevice("bob", identity: IdentityKeyPair(random: DeterministicRandomSource(seed: [9])))
        #expect(throws: ProtocolError.untrustedIdentity) {
            try alice.sessions.startSession(with: bob.address, bundle: impostor.bundle(), random: alice.random)
        }
    }

    @Test func identityConversionMatchesPrivateKeyConversion() throws {
        for seed in 0..<16 {
            let identity = IdentityKeyPair(random: DeterministicRandomSource(seed: [UInt8(seed)]))
            let fromPublic = try IdentityKeyPair.agreementPublicKey(fromIdentityKey: identity.publicKey)
            #expect(fromPublic == Array(identity.agreementKey.publicKey.rawRepresentation))
        }
    }

    @Test func simultaneousSessionsSettleOnTheNewestThatDecrypts() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob, opk: 0)
        try bob.connect(to: alice, opk: 1)
        let fromAlice = try alice.send("a1", to: bob)
        let fromBob = try bob.send("b1", to: alice)
        #expect(try bob.receive(fromAlice, from: alice) == "a1")
        #expect(try alice.receive(fromBob, from: bob) == "b1")
        // Each side now holds two states; messages on either still get through.
        let a2 = try alice.send("a2", to: bob), b2 = try bob.send("b2", to: alice)
        #expect(try bob.receive(a2, from: alice) == "a2")
        #expect(try alice.receive(b2, from: bob) == "b2")
        let a3 = try alice.send("a3", to: bob)
        #expect(try bob.receive(a3, from: alice) == "a3")
    }

    @Test func messagesToUnknownPeerFail() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        #expect(throws: ProtocolError.noSession) { _ = try alice.send("x", to: bob) }
    }
}
