import Foundation
import ParleyCrypto
import Testing
@testable import ParleyProtocol

/// `Vectors/ratchet-conversation.json`: a conversation with out-of-order delivery and rejections.
struct RatchetVectorFile: Codable, Equatable {
    struct Step: Codable, Equatable {
        /// "send", "receive" or "reject".
        var action: String
        /// "alice" or "bob": who acts.
        var party: String
        /// The message's label, e.g. "a2" (Alice's third message).
        var label: String
        var plaintext: String?
        var wire: String
    }
    var description: String
    var setup: String
    var aliceRandomSeed, bobRandomSeed: String
    var steps: [Step]
}

@Suite struct RatchetVectorTests {
    /// Runs the scripted conversation, recording every byte.
    static func generate() throws -> RatchetVectorFile {
        let pqxdh = try Vectors.load("pqxdh", as: PQXDHVectorFile.self).cases[0]
        let parties = VectorParties()
        let aliceRandom = DeterministicRandomSource(seed: [UInt8](hex: pqxdh.aliceRandomSeed))
        let bobRandom = DeterministicRandomSource(seed: [UInt8](hex: pqxdh.bobRandomSeed))
        let alice = SessionCipher(stores: parties.aliceStores()), bob = SessionCipher(stores: parties.bobStores())
        try alice.startSession(
            with: VectorParties.bobAddress, bundle: parties.bundle(withOneTimePreKey: true), random: aliceRandom,
            encapsulator: PinnedKEMEncapsulator(
                ciphertext: [UInt8](hex: pqxdh.kemCiphertext), sharedSecret: [UInt8](hex: pqxdh.kemSharedSecret)))

        var steps: [RatchetVectorFile.Step] = []
        var wires: [String: [UInt8]] = [:]
        var texts: [String: [UInt8]] = [:]
        func send(_ label: String) throws {
            let fromAlice = label.hasPrefix("a")
            let text = Array("message \(label) from \(fromAlice ? "Alice" : "Bob")".utf8)
            let wire =
                fromAlice
                ? try alice.encrypt(text, for: VectorParties.bobAddress, random: aliceRandom).serialized
                : try bob.encrypt(text, for: VectorParties.aliceAddress, random: bobRandom).serialized
            wires[label] = wire
            texts[label] = text
            steps.append(.init(action: "send", party: fromAlice ? "alice" : "bob", label: label, plaintext: text.hex, wire: wire.hex))
        }
        func receive(_ label: String) throws {
            let toBob = label.hasPrefix("a")
            let text =
                toBob
                ? try bob.decrypt(wires[label]!, from: VectorParties.aliceAddress, random: bobRandom)
                : try alice.decrypt(wires[label]!, from: VectorParties.bobAddress, random: aliceRandom)
            precondition(text == texts[label])
            steps.append(.init(action: "receive", party: toBob ? "bob" : "alice", label: label, plaintext: text.hex, wire: wires[label]!.hex))
        }
        func reject(_ label: String, _ wire: [UInt8]) {
            let toBob = label.hasPrefix("a")
            let failed =
                toBob
                ? (try? bob.decrypt(wire, from: VectorParties.aliceAddress, random: bobRandom)) == nil
                : (try? alice.decrypt(wire, from: VectorParties.bobAddress, random: aliceRandom)) == nil
            precondition(failed)
            steps.append(.init(action: "reject", party: toBob ? "bob" : "alice", label: label, plaintext: nil, wire: wire.hex))
        }

        for label in ["a0", "a1", "a2"] { try send(label) }
        try receive("a2")
        try receive("a0")
        reject("a0 again (duplicate)", wires["a0"]!)
        try send("b0")
        try send("b1")
        try receive("b1")
        for label in ["a3", "a4"] { try send(label) }
        try receive("a4")
        try receive("a1")
        try receive("b0")
        try receive("a3")
        try send("a5")
        var tampered = wires["a5"]!
        tampered[tampered.count - 1] ^= 0x01
        reject("a5 with a flipped tag bit", tampered)
        var header = wires["a5"]!
        header[40] ^= 0x01
        reject("a5 with n changed", header)
        try receive("a5")
        try send("b2")
        try receive("b2")
        reject("b2 again (duplicate)", wires["b2"]!)
        return RatchetVectorFile(
            description:
                "Parley Double Ratchet v1 (docs/PROTOCOL.md §5). Starts with the setup of pqxdh.json case 'with-one-time-prekey' (same keys, seeds and KEM values), so a0 is a prekey message of that same session (same 1166-byte prefix and header; its plaintext differs). Each party draws from its own DeterministicRandomSource in the order of its steps: padding on every send, 32 bytes on every DH ratchet step. Steps are executed in order; 'reject' steps must fail and leave the party's session unchanged (none of them draws randomness).",
            setup: "pqxdh.json#with-one-time-prekey", aliceRandomSeed: pqxdh.aliceRandomSeed,
            bobRandomSeed: pqxdh.bobRandomSeed, steps: steps)
    }

    @Test func committedFileMatchesGenerator() throws {
        let generated = try Self.generate()
        if Vectors.shouldWrite { try Vectors.write(generated, name: "ratchet-conversation") }
        let committed = try Vectors.load("ratchet-conversation", as: RatchetVectorFile.self)
        #expect(try Vectors.encode(generated) == Vectors.encode(committed))
    }

    /// Replays only the received side from the committed bytes: Bob and Alice must read exactly
    /// the recorded plaintexts and refuse the recorded rejections without changing state.
    @Test func committedMessagesDecryptInTheRecordedOrder() throws {
        let file = try Vectors.load("ratchet-conversation", as: RatchetVectorFile.self)
        let parties = VectorParties()
        let generated = try Self.generate()
        #expect(generated.steps.count == file.steps.count)
        let bobStores = parties.bobStores()
        let bob = SessionCipher(stores: bobStores)
        let bobRandom = DeterministicRandomSource(seed: [UInt8](hex: file.bobRandomSeed))
        // Bob's sends come from the file too; Alice is only needed as a receiver of them.
        for step in file.steps where step.party == "bob" {
            let wire = [UInt8](hex: step.wire)
            switch step.action {
            case "receive":
                let text = try bob.decrypt(wire, from: VectorParties.aliceAddress, random: bobRandom)
                #expect(text.hex == step.plaintext, "\(step.label)")
            case "reject":
                let before = try bobStores.sessions.loadSession(for: VectorParties.aliceAddress)?.serialized
                #expect(throws: ProtocolError.decryptionFailed, "\(step.label)") {
                    _ = try bob.decrypt(wire, from: VectorParties.aliceAddress, random: bobRandom)
                }
                #expect(try bobStores.sessions.loadSession(for: VectorParties.aliceAddress)?.serialized == before)
            case "send":
                let text = try bob.encrypt(
                    [UInt8](hex: step.plaintext!), for: VectorParties.aliceAddress, random: bobRandom)
                #expect(text.serialized.hex == step.wire, "\(step.label)")
            default:
                Issue.record("unknown action \(step.action)")
            }
        }
    }
}
