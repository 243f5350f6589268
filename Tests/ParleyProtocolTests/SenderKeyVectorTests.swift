import Crypto
import Foundation
import ParleyCrypto
import Testing
@testable import ParleyProtocol

/// `Vectors/sender-keys.json`: one sender chain, its distribution, messages and refusals.
struct SenderKeyVectorFile: Codable, Equatable {
    struct Message: Codable, Equatable {
        var iteration: UInt32
        var plaintext, messageKey, aesKey, nonce, wire: String
    }
    struct Invalid: Codable, Equatable {
        var name, wire: String
    }
    var description: String
    var groupId: String
    var senderRandomSeed: String
    var chainKey, signingSeed, chainId, signingPublic, distribution: String
    var messages: [Message]
    var receiveOrder: [Int]
    var invalidMessages: [Invalid]
}

@Suite struct SenderKeyVectorTests {
    static let groupId = "parley-vector-group-Ω"

    static func generate() throws -> SenderKeyVectorFile {
        let seed = VectorParties.seed("alice", "sender-key-random")
        let random = DeterministicRandomSource(seed: seed)
        var own = SenderKeyRecord(state: .newChain(random: random))
        let initial = own.newest
        var messages: [SenderKeyVectorFile.Message] = []
        for i in 0..<5 {
            let chainBefore = own.newest.chain
            let plaintext = Array("group message \(i)".utf8)
            let wire = try own.encrypt(plaintext, groupId: groupId, random: random)
            let keys = MessageKeys(messageKey: chainBefore.messageKey, info: ProtocolConstants.senderKeyInfo)
            messages.append(
                .init(
                    iteration: wire.iteration, plaintext: plaintext.hex, messageKey: chainBefore.messageKey.hex,
                    aesKey: keys.key.hex, nonce: keys.nonce.hex, wire: wire.serialized.hex))
        }
        // A message 257 iterations ahead of a fresh receiver: beyond the skip bound.
        var far = own
        for _ in 5..<257 { _ = try far.encrypt([0], groupId: groupId, random: random) }
        let tooFar = try far.encrypt(Array("too far".utf8), groupId: groupId, random: random)

        let good = [UInt8](hex: messages[0].wire)
        var invalid: [SenderKeyVectorFile.Invalid] = []
        func add(_ name: String, _ edit: (inout [UInt8]) -> Void) {
            var bytes = good
            edit(&bytes)
            invalid.append(.init(name: name, wire: bytes.hex))
        }
        add("unknown version 0x02") { $0[0] = 0x02 }
        add("unexpected type 0x01") { $0[1] = 0x01 }
        for cut in [0, 1, 2, 34, 38, 117, good.count - 1] { add("truncated to \(cut) bytes") { $0 = Array($0[..<cut]) } }
        add("flipped bit in chainId (unknown chain)") { $0[5] ^= 0x01 }
        add("flipped bit in iteration") { $0[37] ^= 0x01 }
        add("flipped bit in ciphertext") { $0[50] ^= 0x01 }
        add("flipped bit in signature") { $0[$0.count - 1] ^= 0x01 }
        // Re-signed with the chain key so only the AEAD can catch it.
        var ciphertext = Array(good[38..<(good.count - 64)])
        ciphertext[0] ^= 0x01
        let signed = GroupMessage.signedBytes(chainId: initial.chainId, iteration: 0, ciphertext: ciphertext)
        let signature = Array(try initial.signingPrivate!.signature(for: signed))
        invalid.append(.init(name: "tampered ciphertext with a valid signature", wire: (signed + signature).hex))
        invalid.append(.init(name: "iteration 257 ahead of a fresh receiver", wire: tooFar.serialized.hex))

        return SenderKeyVectorFile(
            description:
                "Parley Sender Keys v1 (docs/PROTOCOL.md §8). The sender draws chainKey (32), signingSeed (32), then padding for each message from DeterministicRandomSource(senderRandomSeed). A receiver that processed 'distribution' decrypts messages in receiveOrder; each invalidMessages entry must be rejected by a receiver that has processed the distribution and nothing else. Ed25519 signatures here are RFC 8032 deterministic.",
            groupId: groupId, senderRandomSeed: seed.hex, chainKey: initial.chain.key.hex,
            signingSeed: Array(initial.signingPrivate!.rawRepresentation).hex, chainId: initial.chainId.hex,
            signingPublic: initial.signingPublic.hex, distribution: initial.distributionMessage.serialized.hex,
            messages: messages, receiveOrder: [2, 0, 4, 1, 3], invalidMessages: invalid)
    }

    @Test func committedFileMatchesGenerator() throws {
        let generated = try Self.generate()
        if Vectors.shouldWrite { try Vectors.write(generated, name: "sender-keys") }
        let committed = try Vectors.load("sender-keys", as: SenderKeyVectorFile.self)
        #expect(try Vectors.encode(generated) == Vectors.encode(committed))
    }

    @Test func receiverReadsCommittedMessagesAndRefusesInvalidOnes() throws {
        let file = try Vectors.load("sender-keys", as: SenderKeyVectorFile.self)
        let distribution = try SenderKeyDistributionMessage(serialized: [UInt8](hex: file.distribution))
        #expect(Array(SHA256.hash(data: distribution.chainKey)).hex == file.chainId)
        var receiver = SenderKeyRecord(state: try SenderKeyState(distribution: distribution))
        for index in file.receiveOrder {
            let message = try GroupMessage(serialized: [UInt8](hex: file.messages[index].wire))
            #expect(try receiver.decrypt(message, groupId: file.groupId).hex == file.messages[index].plaintext)
        }
        for invalid in file.invalidMessages {
            var fresh = SenderKeyRecord(state: try SenderKeyState(distribution: distribution))
            let before = fresh.serialized
            #expect(throws: ProtocolError.self, "\(invalid.name)") {
                _ = try fresh.decrypt(try GroupMessage(serialized: [UInt8](hex: invalid.wire)), groupId: file.groupId)
            }
            #expect(fresh.serialized == before)
        }
    }
}
