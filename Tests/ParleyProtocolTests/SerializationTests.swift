import ParleyCrypto
import Testing
@testable import ParleyProtocol

@Suite struct SerializationTests {
    @Test func sessionRoundTripRestoresBehaviourExactly() throws {
        var p = try RatchetPair()
        let pending = try (0..<5).map { try p.aliceSends("p\($0)") }
        _ = try p.bobReads(pending[4])  // leaves four skipped keys
        let restored = try SessionRecord(serialized: p.bob.serialized)
        #expect(restored.serialized == p.bob.serialized)
        // Both copies, fed the same randomness, behave identically from here on.
        var original = p.bob
        var copy = restored
        for i in 0..<4 {
            #expect(try original.decrypt(pending[i], random: p.random) == copy.decrypt(pending[i], random: p.random))
        }
        let r1 = DeterministicRandomSource(seed: [1]), r2 = DeterministicRandomSource(seed: [1])
        #expect(try original.encrypt([7, 7], random: r1) == copy.encrypt([7, 7], random: r2))
        #expect(original.serialized == copy.serialized)
    }

    @Test func pendingPrekeySurvivesRoundTrip() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let record = try alice.stores.sessions.loadSession(for: bob.address)!
        let restored = try SessionRecord(serialized: record.serialized)
        #expect(restored.current.pendingPreKey == record.current.pendingPreKey)
        try alice.stores.sessions.storeSession(restored, for: bob.address)
        #expect(try bob.receive(try alice.send("after restore", to: bob), from: alice) == "after restore")
    }

    @Test func storesRoundTrip() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob"), carol = TestDevice("carol")
        try alice.connect(to: bob)
        try alice.connect(to: carol)
        _ = try bob.receive(try alice.send("x", to: bob), from: alice)
        let d = try bob.groups.startNewChain(groupId: "g", random: bob.random)
        try alice.groups.process(d, groupId: "g", from: bob.address)
        _ = try alice.groups.startNewChain(groupId: "g", random: alice.random)

        let sessions = alice.stores.sessions as! InMemorySessionStore
        let restoredSessions = try InMemorySessionStore(serialized: sessions.serialized)
        #expect(restoredSessions.serialized == sessions.serialized)
        #expect(restoredSessions.addresses == [bob.address, carol.address])

        let senderKeys = alice.stores.senderKeys as! InMemorySenderKeyStore
        #expect(try InMemorySenderKeyStore(serialized: senderKeys.serialized).serialized == senderKeys.serialized)

        let opks = bob.stores.preKeys as! InMemoryPreKeyStore
        let restoredOPKs = try InMemoryPreKeyStore(serialized: opks.serialized)
        #expect(restoredOPKs.count == 4)
        #expect(restoredOPKs.serialized == opks.serialized)

        let spks = bob.stores.signedPreKeys as! InMemorySignedPreKeyStore
        #expect(try InMemorySignedPreKeyStore(serialized: spks.serialized).serialized == spks.serialized)
        let pqs = bob.stores.pqPreKeys as! InMemoryPQPreKeyStore
        #expect(try InMemoryPQPreKeyStore(serialized: pqs.serialized).serialized == pqs.serialized)
    }

    @Test func senderKeyRoundTripKeepsSkippedKeys() throws {
        let random = DeterministicRandomSource(seed: [3])
        var own = SenderKeyRecord(state: .newChain(random: random))
        var theirs = SenderKeyRecord(state: try SenderKeyState(distribution: own.newest.distributionMessage))
        let messages = try (0..<3).map { try own.encrypt([UInt8($0)], groupId: "g", random: random) }
        _ = try theirs.decrypt(messages[2], groupId: "g")
        var restored = try SenderKeyRecord(serialized: theirs.serialized)
        #expect(try restored.decrypt(messages[0], groupId: "g") == [0])
        #expect(try restored.decrypt(messages[1], groupId: "g") == [1])
        var restoredOwn = try SenderKeyRecord(serialized: own.serialized)
        let next = try restoredOwn.encrypt([9], groupId: "g", random: random)
        #expect(try restored.decrypt(next, groupId: "g") == [9])
    }

    @Test func prekeyPolicy() throws {
        let day: UInt64 = 86_400
        let identity = IdentityKeyPair(random: DeterministicRandomSource(seed: [1]))
        let random = DeterministicRandomSource(seed: [2])
        let old = SignedPreKeyRecord.generate(id: 1, identity: identity, now: 0, random: random)
        #expect(!PreKeyPolicy.needsRotation([old], now: 6 * day))
        #expect(PreKeyPolicy.needsRotation([old], now: 7 * day))
        let new = SignedPreKeyRecord.generate(id: 2, identity: identity, now: 7 * day, random: random)
        #expect(PreKeyPolicy.expiredSignedPreKeys([old, new], now: 13 * day).isEmpty)
        #expect(PreKeyPolicy.expiredSignedPreKeys([old, new], now: 14 * day) == [1])
        #expect(PreKeyPolicy.needsReplenishing(remaining: 19))
        #expect(!PreKeyPolicy.needsReplenishing(remaining: 20))
        let batch = PreKeyPolicy.oneTimePreKeys(firstId: 0xFFFF_FFFE, random: random)
        #expect(batch.count == 50)
        #expect(!batch.contains { $0.id == ProtocolConstants.noOneTimePreKey })
        #expect(batch[1].id == 0)
    }
}
