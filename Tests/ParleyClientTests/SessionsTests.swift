import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import ParleyProtocol
import Testing

/// The sessions alone, two accounts' vaults and no server: what one encrypts the other opens, what is tampered
/// with opens nowhere and steps nothing, and a group's chain is new once a device leaves its recipients.
@Suite("Sessions, the part")
struct SessionsTests {
    /// One side: a vault, an identity, and its address.
    private struct Side {
        let account: ScratchAccount
        let sessions: Sessions
        let address: ProtocolAddress

        init(_ name: String, account id: Int64) throws {
            account = try ScratchAccount("sessions-\(name)")
            sessions = Sessions(database: account.database, identity: IdentityKeyPair(random: SystemRandomSource()), random: SystemRandomSource())
            address = try ProtocolAddress(accountId: String(id), deviceId: 1)
        }

        /// A bundle as the server would hand it out, its private halves stored here.
        func bundle() throws -> PreKeyBundle {
            let random = SystemRandomSource(), identity = sessions.identity
            let signed = SignedPreKeyRecord.generate(id: 1, identity: identity, now: 1, random: random)
            let pq = PQPreKeyRecord.generate(id: 1, identity: identity, now: 1, random: random)
            try sessions.store.storeSignedPreKey(signed)
            try sessions.store.storePQPreKey(pq)
            return PreKeyBundle(
                identityKey: identity.publicKey, signedPreKeyId: signed.id, signedPreKey: signed.keyPair.publicKey,
                signedPreKeySignature: signed.signature, oneTimePreKeyId: nil, oneTimePreKey: nil,
                pqPreKeyId: pq.id, pqPreKey: pq.publicKey, pqPreKeySignature: pq.signature)
        }
    }

    @Test("what ann encrypts bob opens, both ways; a session exists only once started")
    func pairwiseRoundTrip() throws {
        let ann = try Side("ann", account: 1), bob = try Side("bob", account: 2)
        #expect(try ann.sessions.hasSession(2, 1) == false)
        try ann.sessions.startSession(with: bob.address, bundle: bob.bundle())
        #expect(try ann.sessions.hasSession(2, 1))
        let hello = MessageContent(id: "m-1", type: "text", text: "hello bob")
        let sealed = try ann.sessions.encrypt(hello.encoded(), for: bob.address)
        let opened = try bob.sessions.decrypt(ClientEnvelope.pairwise(sealed).serialized, conversationID: 1, sender: 1, device: 1, local: bob.address)
        #expect(opened.text == "hello bob")
        let reply = try bob.sessions.encrypt(MessageContent(id: "m-2", type: "text", text: "hi ann").encoded(), for: ann.address)
        #expect(try ann.sessions.decrypt(ClientEnvelope.pairwise(reply).serialized, conversationID: 1, sender: 2, device: 1, local: ann.address).text == "hi ann")
    }

    @Test("flipped, cut, garbage and replayed envelopes open nowhere and leave bob's session as it was")
    func tamperedEnvelopesStepNothing() throws {
        let ann = try Side("ann-t", account: 1), bob = try Side("bob-t", account: 2)
        try ann.sessions.startSession(with: bob.address, bundle: bob.bundle())
        let first = try ann.sessions.encrypt(MessageContent(id: "m-1", type: "text", text: "one").encoded(), for: bob.address)
        _ = try bob.sessions.decrypt(ClientEnvelope.pairwise(first).serialized, conversationID: 1, sender: 1, device: 1, local: bob.address)
        let second = try ann.sessions.encrypt(MessageContent(id: "m-2", type: "text", text: "two").encoded(), for: bob.address)
        let envelope = ClientEnvelope.pairwise(second).serialized
        let before = try bob.account.database.read { try $0.all(Namespace.session) }
        // A bit flipped in the ratchet message (its ciphertext or MAC; the prekey fields around it matter only to a
        // session not yet made, and this one is), cut short, garbage, oversized, and the first message replayed.
        var flipped = envelope
        flipped[flipped.count - 12] ^= 0x01
        let hostile: [[UInt8]] = [flipped, Array(envelope.dropLast(1)), Array(envelope.prefix(3)), [], [0xFF, 0xFF],
                                  [UInt8](repeating: 0, count: 1 << 16), ClientEnvelope.pairwise(first).serialized]
        for (index, bytes) in hostile.enumerated() {
            #expect(throws: (any Error).self, "hostile input \(index) (\(bytes.count) bytes, flipped at \(envelope.count / 2) of \(envelope.count))") {
                _ = try bob.sessions.decrypt(bytes, conversationID: 1, sender: 1, device: 1, local: bob.address)
            }
        }
        #expect(try bob.account.database.read { try $0.all(Namespace.session) }.map(\.value) == before.map(\.value))
        #expect(try bob.sessions.decrypt(envelope, conversationID: 1, sender: 1, device: 1, local: bob.address).text == "two")
    }

    @Test("a group's distribution goes once to each device, and a device leaving starts a new chain it cannot read")
    func groupChains() throws {
        let ann = try Side("ann-g", account: 1), bob = try Side("bob-g", account: 2), carol = try Side("carol-g", account: 3)
        try ann.sessions.startSession(with: bob.address, bundle: bob.bundle())
        try ann.sessions.startSession(with: carol.address, bundle: carol.bundle())
        let group = Conversation(id: 9, kind: "group", members: [1, 2, 3], creatorID: 1, title: nil, unread: 0, favourite: false)
        let text = MessageContent(id: "g-1", type: "text", text: "to both").encoded()
        let first = try ann.sessions.envelopes(text, conversation: group, recipients: [bob.address, carol.address], local: ann.address)
        #expect(first.count == 2)
        try ann.sessions.markDistributed(conversationID: 9, to: [bob.address, carol.address])
        for (side, envelope) in zip([bob, carol], first) {
            #expect(try side.sessions.decrypt(envelope.ciphertext, conversationID: 9, sender: 1, device: 1, local: side.address).text == "to both")
        }
        // Sent again to the same two: no distribution message rides along.
        let again = try ann.sessions.envelopes(text, conversation: group, recipients: [bob.address, carol.address], local: ann.address)
        for envelope in again {
            guard case .group(let distribution, _) = try ClientEnvelope(serialized: envelope.ciphertext) else { Issue.record("not a group envelope"); continue }
            #expect(distribution == nil)
        }
        // Carol leaves: the next message is on a new chain, whose body carol's old chain cannot open.
        let shrunk = try ann.sessions.envelopes(MessageContent(id: "g-2", type: "text", text: "bob only").encoded(),
                                                conversation: group, recipients: [bob.address], local: ann.address)
        guard case .group(let distribution, let body) = try ClientEnvelope(serialized: shrunk[0].ciphertext) else { Issue.record("not a group envelope"); return }
        #expect(distribution != nil, "a new chain travels with its distribution message")
        #expect(throws: (any Error).self) {
            _ = try carol.sessions.decrypt(ClientEnvelope.group(distribution: nil, message: body).serialized,
                                           conversationID: 9, sender: 1, device: 1, local: carol.address)
        }
        #expect(try bob.sessions.decrypt(shrunk[0].ciphertext, conversationID: 9, sender: 1, device: 1, local: bob.address).text == "bob only")
    }
}
