import ParleyCrypto
import Testing
@testable import ParleyProtocol

/// Two sessions already set up and past the prekey stage, as pure values.
struct RatchetPair {
    var alice: SessionRecord
    var bob: SessionRecord
    let random = DeterministicRandomSource(seed: Array("ratchet-pair".utf8))

    init() throws {
        let a = TestDevice("alice"), b = TestDevice("bob")
        try a.connect(to: b)
        _ = try b.receive(try a.send("setup", to: b), from: a)
        _ = try a.receive(try b.send("ack", to: a), from: b)
        alice = try a.stores.sessions.loadSession(for: b.address)!
        bob = try b.stores.sessions.loadSession(for: a.address)!
    }

    mutating func aliceSends(_ text: String) throws -> RatchetMessage {
        guard case .message(let m) = try alice.encrypt(Array(text.utf8), random: random) else {
            fatalError("expected a plain message after the handshake")
        }
        return m
    }

    mutating func bobSends(_ text: String) throws -> RatchetMessage {
        guard case .message(let m) = try bob.encrypt(Array(text.utf8), random: random) else {
            fatalError("expected a plain message")
        }
        return m
    }

    mutating func bobReads(_ m: RatchetMessage) throws -> String {
        String(decoding: try bob.decrypt(m, random: random), as: UTF8.self)
    }

    mutating func aliceReads(_ m: RatchetMessage) throws -> String {
        String(decoding: try alice.decrypt(m, random: random), as: UTF8.self)
    }
}

@Suite struct RatchetTests {
    @Test func outOfOrderAcrossChainsDecrypts() throws {
        var p = try RatchetPair()
        let a = try (0..<4).map { try p.aliceSends("a\($0)") }
        #expect(try p.bobReads(a[3]) == "a3")
        #expect(try p.bobReads(a[1]) == "a1")
        let b0 = try p.bobSends("b0")
        #expect(try p.aliceReads(b0) == "b0")
        let a4 = try p.aliceSends("a4")
        #expect(try p.bobReads(a4) == "a4")
        // Keys from the older chain are still kept.
        #expect(try p.bobReads(a[0]) == "a0")
        #expect(try p.bobReads(a[2]) == "a2")
        #expect(p.bob.current.skippedKeyCount == 0)
    }

    @Test func duplicateIsRejectedAndChangesNothing() throws {
        var p = try RatchetPair()
        let m = try p.aliceSends("once")
        #expect(try p.bobReads(m) == "once")
        let before = p.bob.serialized
        #expect(throws: ProtocolError.decryptionFailed) { try p.bobReads(m) }
        #expect(p.bob.serialized == before)
    }

    @Test func skipBoundIs256PerChainStep() throws {
        var p = try RatchetPair()
        var sent: [RatchetMessage] = []
        for i in 0...257 { sent.append(try p.aliceSends("m\(i)")) }
        let before = p.bob.serialized
        // n = 257 would need 257 skipped keys: refused, session untouched.
        #expect(throws: ProtocolError.decryptionFailed) { try p.bobReads(sent[257]) }
        #expect(p.bob.serialized == before)
        // n = 256 needs exactly 256: accepted.
        #expect(try p.bobReads(sent[256]) == "m256")
        #expect(p.bob.current.skippedKeyCount == 256)
        #expect(try p.bobReads(sent[257]) == "m257")
        #expect(try p.bobReads(sent[0]) == "m0")
    }

    @Test func storedSkippedKeysAreCappedOldestFirst() throws {
        var p = try RatchetPair()
        var first: RatchetMessage?
        var last: RatchetMessage?
        // Nine chains of 250 skipped keys each = 2250 > 2000.
        for round in 0..<9 {
            var chain: [RatchetMessage] = []
            for i in 0...250 { chain.append(try p.aliceSends("r\(round)m\(i)")) }
            if round == 0 { first = chain[0] }
            if round == 8 { last = chain[0] }
            _ = try p.bobReads(chain[250])
            _ = try p.aliceReads(try p.bobSends("turn \(round)"))
        }
        #expect(p.bob.current.skippedKeyCount == 2000)
        #expect(throws: ProtocolError.decryptionFailed) { try p.bobReads(first!) }
        #expect(try p.bobReads(last!) == "r8m0")
    }

    @Test func tamperedMessagesAreRejectedWithoutStateChange() throws {
        var p = try RatchetPair()
        let m = try p.aliceSends("integrity")
        let before = p.bob.serialized
        for index in stride(from: 2, to: m.serialized.count, by: 7) {
            var bytes = m.serialized
            bytes[index] ^= 0x40
            guard let tampered = try? RatchetMessage(serialized: bytes) else { continue }
            #expect(throws: ProtocolError.decryptionFailed) { try p.bobReads(tampered) }
            #expect(p.bob.serialized == before)
        }
        #expect(try p.bobReads(m) == "integrity")
    }

    @Test func bobCannotSendBeforeReceiving() throws {
        let bob = TestDevice("bob"), alice = TestDevice("alice")
        let state = SessionState.responder(
            sharedSecret: [UInt8](repeating: 1, count: 32), localIdentityKey: bob.identity.publicKey,
            remoteIdentityKey: alice.identity.publicKey, baseKey: [UInt8](repeating: 2, count: 32),
            signedPreKey: bob.signedPreKey.keyPair)
        var record = SessionRecord(state: state)
        #expect(throws: ProtocolError.sessionNotReadyToSend) {
            _ = try record.encrypt([1], random: bob.random)
        }
    }

    @Test func oversizedPlaintextIsRefused() throws {
        var p = try RatchetPair()
        #expect(throws: ProtocolError.plaintextTooLarge) {
            _ = try p.alice.encrypt([UInt8](repeating: 0, count: ProtocolConstants.maxPlaintextSize + 1), random: p.random)
        }
    }
}
