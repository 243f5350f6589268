import Foundation
import ParleyClient
import ParleyCrypto
import Testing

/// `keys_updated` reaches only connected devices: a device that was away when a contact rotated their keys learns it
/// when it comes back (`get_identity_keys`, docs/CLIENT.md §9), before anything waiting in its outbox goes out.
@Suite("Client: a key change while away")
struct KeyChangeWhileAwayTests {
    @Test("a trusted contact's rotation while away: warned once on coming back, and the next message goes to the new key")
    func trustedContact() async throws {
        let harness = try await ClientHarness.start()
        let (ann, bob, chat, bobID) = try await harness.acquaintances()

        await ann.disconnect()
        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        #expect(try ann.trust.status(of: bobID) == .trusted, "ann was away: nothing told her yet")

        let log = EventLog(ann)
        try await ann.connect()
        try await eventually("ann learns the new key on coming back") { try ann.trust.status(of: bobID) == .unverified }
        #expect(log.all.contains(.identityKeyChanged(accountID: bobID, sendingBlocked: false)))
        let warnings = try ann.history.messages(in: chat.id).filter { $0.kind == Message.keyChangeKind }
        #expect(warnings.count == 1 && warnings.first?.text.contains("identity key of bob@example.org changed") == true)
        let safety = try await ann.trust.verification(of: "bob@example.org")
        #expect(safety.contactFingerprint == bob.fingerprint, "the number shown is the new key's")

        // Coming back again finds nothing new: no second warning.
        await ann.disconnect()
        try await ann.connect()
        let after = try #require(try await ann.send("after", to: chat.id).message)
        try await eventually("bob reads the new one") { try bob.history.message(after.id)?.text == "after" }
        #expect(try ann.history.messages(in: chat.id).filter { $0.kind == Message.keyChangeKind }.count == 1)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a verified contact's rotation while away holds what waited in the outbox until the new key is accepted")
    func verifiedContact() async throws {
        let harness = try await ClientHarness.start()
        let (ann, bob, chat, bobID) = try await harness.acquaintances()
        let shown = try await ann.trust.verification(of: "bob@example.org")
        #expect(try await ann.trust.markVerified("bob@example.org", comparedNumber: shown.safetyNumber).status == .verified)

        await ann.disconnect()
        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        let queued = try await ann.send("written while away", to: chat.id)
        #expect(queued.message == nil, "kept in the outbox while offline")
        #expect(try await ann.pendingCount() == 1)

        try await ann.connect()
        try await eventually("ann learns the new key") { try ann.trust.status(of: bobID) == .unverified }
        #expect(try await ann.trust.verification(of: "bob@example.org").sendingBlocked)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await ann.pendingCount() == 1, "not sent under a key ann has not accepted")
        #expect(try await ann.trust.acceptIdentityChange(of: "bob@example.org") == .trusted)
        try await eventually("the waiting message goes out") { try await ann.pendingCount() == 0 }
        try await eventually("bob reads it") { try bob.history.messages(in: chat.id).contains { $0.text == "written while away" } }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}

extension ClientHarness {
    /// Ann and Bob with a direct conversation Bob accepted and one message Bob read: each has recorded the other's key.
    func acquaintances() async throws -> (ann: ParleyClient, bob: ParleyClient, chat: Conversation, bobID: Int64) {
        let ann = try await person("ann"), bob = try await person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        try await bob.requests.accept(chat.id)
        let first = try #require(try await ann.send("before", to: chat.id).message)
        try await eventually("bob reads it") { try bob.history.message(first.id) != nil }
        return (ann, bob, chat, try #require(await bob.accountID))
    }
}
