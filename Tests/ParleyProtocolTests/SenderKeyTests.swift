import ParleyCrypto
import Testing
@testable import ParleyProtocol

@Suite struct SenderKeyTests {
    let group = "team-🦜"

    /// Every member starts a chain and hands it to every other member.
    func makeGroup(_ members: [TestDevice]) throws {
        for member in members {
            let distribution = try member.groups.startNewChain(groupId: group, random: member.random)
            for other in members where other.address != member.address {
                try other.groups.process(
                    try SenderKeyDistributionMessage(serialized: distribution.serialized), groupId: group,
                    from: member.address)
            }
        }
    }

    func send(_ text: String, from member: TestDevice) throws -> [UInt8] {
        try member.groups.encrypt(Array(text.utf8), groupId: group, random: member.random).serialized
    }

    func read(_ bytes: [UInt8], by member: TestDevice, from sender: TestDevice) throws -> String {
        String(decoding: try member.groups.decrypt(bytes, groupId: group, from: sender.address), as: UTF8.self)
    }

    @Test func membersReadEachOtherInAnyOrder() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob"), carol = TestDevice("carol")
        try makeGroup([alice, bob, carol])
        let messages = try (0..<5).map { try send("m\($0)", from: alice) }
        for i in [4, 0, 2, 1, 3] {
            #expect(try read(messages[i], by: bob, from: alice) == "m\(i)")
        }
        for i in 0..<5 { #expect(try read(messages[i], by: carol, from: alice) == "m\(i)") }
        #expect(throws: ProtocolError.decryptionFailed) { try read(messages[2], by: carol, from: alice) }
        #expect(try read(try send("hey", from: carol), by: alice, from: carol) == "hey")
    }

    @Test func removedMemberCannotReadLaterMessages() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob"), carol = TestDevice("carol")
        try makeGroup([alice, bob, carol])
        let before = try send("before", from: alice)
        #expect(try read(before, by: carol, from: alice) == "before")
        // Carol leaves: Alice and Bob start new chains and send them only to each other.
        try makeGroup([alice, bob])
        let after = try send("after carol left", from: alice)
        let fromBob = try send("bob too", from: bob)
        #expect(try read(after, by: bob, from: alice) == "after carol left")
        #expect(try read(fromBob, by: alice, from: bob) == "bob too")
        #expect(throws: ProtocolError.unknownSenderChain) { try read(after, by: carol, from: alice) }
        #expect(throws: ProtocolError.unknownSenderChain) { try read(fromBob, by: carol, from: bob) }
        // Carol's copy of the old chain, stepped as far as she likes, never yields the new keys.
        var carolsOld = try carol.stores.senderKeys.loadSenderKey(groupId: group, sender: alice.address)!.newest
        let parsed = try GroupMessage(serialized: after)
        #expect(parsed.chainId != carolsOld.chainId)
        #expect(throws: ProtocolError.unknownSenderChain) { try carolsOld.decrypt(parsed, groupId: group) }
    }

    @Test func badSignatureIsRejectedBeforeDecryption() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try makeGroup([alice, bob])
        let good = try send("signed", from: alice)
        let before = try bob.stores.senderKeys.loadSenderKey(groupId: group, sender: alice.address)!.serialized
        for index in [2, 34, 40, good.count - 70, good.count - 1] {
            var bad = good
            bad[index] ^= 1
            #expect(throws: ProtocolError.self) { try read(bad, by: bob, from: alice) }
        }
        #expect(try bob.stores.senderKeys.loadSenderKey(groupId: group, sender: alice.address)!.serialized == before)
        #expect(try read(good, by: bob, from: alice) == "signed")
    }

    @Test func correctlySignedButTamperedCiphertextIsRejected() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try makeGroup([alice, bob])
        var record = try alice.stores.senderKeys.loadSenderKey(groupId: group, sender: alice.address)!
        let original = try record.encrypt(Array("x".utf8), groupId: group, random: alice.random)
        var ciphertext = original.ciphertext
        ciphertext[0] ^= 1
        let signed = GroupMessage.signedBytes(chainId: original.chainId, iteration: 0, ciphertext: ciphertext)
        let signature = Array(try record.newest.signingPrivate!.signature(for: signed))
        let forged = GroupMessage(chainId: original.chainId, iteration: 0, ciphertext: ciphertext, signature: signature)
        #expect(throws: ProtocolError.decryptionFailed) { try read(forged.serialized, by: bob, from: alice) }
        // Same message under another group id fails too: the group id is bound in the AD.
        var bobsCopy = try bob.stores.senderKeys.loadSenderKey(groupId: group, sender: alice.address)!
        #expect(throws: ProtocolError.decryptionFailed) { _ = try bobsCopy.decrypt(original, groupId: "other") }
        #expect(try bobsCopy.decrypt(original, groupId: group) == Array("x".utf8))
    }

    @Test func skipBoundIs256Iterations() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try makeGroup([alice, bob])
        let messages = try (0...257).map { try send("\($0)", from: alice) }
        #expect(throws: ProtocolError.decryptionFailed) { try read(messages[257], by: bob, from: alice) }
        #expect(try read(messages[256], by: bob, from: alice) == "256")
        #expect(try read(messages[0], by: bob, from: alice) == "0")
    }

    @Test func distributionIsCheckedAndDuplicatesIgnored() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        let d = try alice.groups.startNewChain(groupId: group, random: alice.random)
        let bad = SenderKeyDistributionMessage(
            chainId: [UInt8](repeating: 0, count: 32), iteration: 0, chainKey: d.chainKey,
            signingPublic: d.signingPublic)
        #expect(throws: ProtocolError.invalidDistribution) { try bob.groups.process(bad, groupId: group, from: alice.address) }
        try bob.groups.process(d, groupId: group, from: alice.address)
        let m = try send("x", from: alice)
        #expect(try read(m, by: bob, from: alice) == "x")
        try bob.groups.process(d, groupId: group, from: alice.address)
        #expect(throws: ProtocolError.decryptionFailed) { try read(m, by: bob, from: alice) }
    }
}
