import ParleyCrypto
import Testing
@testable import ParleyProtocol

@Suite struct WireFormatTests {
    /// One valid encoding of each message type, from a real exchange.
    static func samples() throws -> [[UInt8]] {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let preKey = try alice.send("first", to: bob)
        _ = try bob.receive(preKey, from: alice)
        let message = try bob.send("reply", to: alice)
        let distribution = try alice.groups.startNewChain(groupId: "g", random: alice.random)
        let group = try alice.groups.encrypt(Array("group".utf8), groupId: "g", random: alice.random)
        return [message, preKey, group.serialized, distribution.serialized]
    }

    @Test func everyTruncationIsAnError() throws {
        for sample in try Self.samples() {
            for length in 0..<sample.count {
                #expect(throws: ProtocolError.self) { _ = try ProtocolMessage(serialized: Array(sample[..<length])) }
            }
            #expect(try ProtocolMessage(serialized: sample).serialized == sample)
        }
    }

    @Test func unknownVersionsAndTypesAreRejected() throws {
        for sample in try Self.samples() {
            for version: UInt8 in [0x00, 0x02, 0xFF] {
                var bytes = sample
                bytes[0] = version
                #expect(throws: ProtocolError.unsupportedVersion(version)) { _ = try ProtocolMessage(serialized: bytes) }
            }
            for type: UInt8 in [0x00, 0x05, 0x7F] {
                var bytes = sample
                bytes[1] = type
                #expect(throws: ProtocolError.unexpectedType(type)) { _ = try ProtocolMessage(serialized: bytes) }
            }
        }
        #expect(throws: ProtocolError.unsupportedVersion(0x02)) { _ = try ProtocolMessage(serialized: [0x02]) }
        #expect(throws: ProtocolError.truncated) { _ = try ProtocolMessage(serialized: [0x01]) }
        let samples = try Self.samples()
        // A decoder for one type refuses another type.
        #expect(throws: ProtocolError.unexpectedType(0x02)) { _ = try RatchetMessage(serialized: samples[1]) }
        #expect(throws: ProtocolError.unexpectedType(0x01)) { _ = try GroupMessage(serialized: samples[0]) }
    }

    @Test func oversizeAndTrailingInputIsRejected() throws {
        let samples = try Self.samples()
        let huge = [UInt8](repeating: 0, count: ProtocolConstants.maxCiphertextSize + 1)
        #expect(throws: ProtocolError.tooLarge) { _ = try RatchetMessage(serialized: samples[0] + huge) }
        #expect(throws: ProtocolError.tooLarge) { _ = try PreKeyMessage(serialized: samples[1] + huge) }
        #expect(throws: ProtocolError.tooLarge) { _ = try GroupMessage(serialized: samples[2] + huge) }
        #expect(throws: ProtocolError.tooLarge) { _ = try SenderKeyDistributionMessage(serialized: samples[3] + [0]) }
    }

    @Test func garbageNeverCrashes() throws {
        let random = DeterministicRandomSource(seed: Array("garbage".utf8))
        for length in [0, 1, 2, 41, 42, 121, 122, 1166, 1300] {
            for first in [[0x01, 0x01], [0x01, 0x02], [0x01, 0x03], [0x01, 0x04], [] as [UInt8]] {
                let bytes = first + random.bytes(length)
                _ = try? ProtocolMessage(serialized: bytes)
                _ = try? SessionRecord(serialized: bytes)
                _ = try? SenderKeyRecord(serialized: bytes)
            }
        }
    }

    @Test func recordTruncationsAndGarbageAreErrors() throws {
        let alice = TestDevice("alice"), bob = TestDevice("bob")
        try alice.connect(to: bob)
        let m = try alice.send("x", to: bob)
        _ = try bob.receive(m, from: alice)
        _ = try alice.groups.startNewChain(groupId: "g", random: alice.random)
        let records: [(kind: String, bytes: [UInt8], parse: ([UInt8]) throws -> Void)] = [
            ("session", alice.snapshot(with: bob)!, { _ = try SessionRecord(serialized: $0) }),
            ("session", bob.snapshot(with: alice)!, { _ = try SessionRecord(serialized: $0) }),
            (
                "sender", try alice.stores.senderKeys.loadSenderKey(groupId: "g", sender: alice.address)!.serialized,
                { _ = try SenderKeyRecord(serialized: $0) }
            ),
            ("spk", bob.signedPreKey.serialized, { _ = try SignedPreKeyRecord(serialized: $0) }),
            ("opk", bob.oneTimePreKeys[1].serialized, { _ = try OneTimePreKeyRecord(serialized: $0) }),
            ("pq", bob.pqPreKey.serialized, { _ = try PQPreKeyRecord(serialized: $0) }),
        ]
        for record in records {
            try record.parse(record.bytes)
            for length in 0..<record.bytes.count {
                #expect(throws: ProtocolError.self, "\(record.kind) cut at \(length)") {
                    try record.parse(Array(record.bytes[..<length]))
                }
            }
            #expect(throws: ProtocolError.trailingBytes) { try record.parse(record.bytes + [0]) }
            var wrongVersion = record.bytes
            wrongVersion[0] = 2
            #expect(throws: ProtocolError.unsupportedVersion(2)) { try record.parse(wrongVersion) }
        }
    }
}

@Suite struct AddressTests {
    @Test func idsThatRecordsCannotHoldAreRefused() throws {
        #expect(throws: ProtocolError.malformed("account id length")) { _ = try ProtocolAddress(accountId: "", deviceId: 1) }
        let long = String(repeating: "é", count: 128)  // 256 UTF-8 bytes
        #expect(throws: ProtocolError.malformed("account id length")) { _ = try ProtocolAddress(accountId: long, deviceId: 1) }
        let address = try ProtocolAddress(accountId: String(repeating: "a", count: 255), deviceId: .max)
        let store = InMemorySessionStore()
        #expect(throws: ProtocolError.malformed("group id length")) {
            try InMemorySenderKeyStore().storeSenderKey(
                SenderKeyRecord(state: .newChain(random: SystemRandomSource())), groupId: "", sender: address)
        }
        #expect(try InMemorySessionStore(serialized: store.serialized).addresses.isEmpty)
    }
}
