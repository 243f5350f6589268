import Foundation
import ParleyClient
import ParleyCrypto
import Synchronization
import Testing

/// Collects a client's events so a test can look for one.
final class EventLog: Sendable {
    private final class Box: Sendable { let events = Mutex<[ClientEvent]>([]) }
    private let box = Box()
    private let task: Task<Void, Never>

    init(_ client: ParleyClient) {
        let stream = client.events()
        let box = self.box
        task = Task { for await event in stream { box.events.withLock { $0.append(event) } } }
    }

    var all: [ClientEvent] { box.events.withLock { $0 } }
    deinit { task.cancel() }
}

@Suite("Client: trust on first use, key changes, verification")
struct TrustTests {
    @Test func firstContactIsTrustedAndBothSeeTheSameNumber() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        try await bob.requests.accept(chat.id)
        let bobID = try #require(await bob.accountID), annID = try #require(await ann.accountID)
        #expect(try ann.trust.status(of: bobID) == .unverified)   // no key seen yet

        let sent = try #require(try await ann.send("hello", to: chat.id).message)
        try await eventually("bob reads it") { try bob.history.message(sent.id) != nil }
        #expect(try ann.trust.status(of: bobID) == .trusted)
        #expect(try bob.trust.status(of: annID) == .trusted)

        let annSees = try await ann.trust.verification(of: "bob@example.org")
        let bobSees = try await bob.trust.verification(of: "ann@example.org")
        #expect(annSees.safetyNumber == bobSees.safetyNumber)
        #expect(annSees.safetyNumber.grouped.split(separator: " ").count == 12)
        #expect(annSees.localFingerprint == bobSees.contactFingerprint)
        #expect(annSees.contactFingerprint == bob.fingerprint)
        #expect(annSees.status == .trusted && !annSees.sendingBlocked)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aTrustedContactsKeyChangeWarnsButDoesNotBlock() async throws {
        let harness = try await ClientHarness.start()
        let (ann, bob, chat, bobID) = try await harness.acquaintances()
        let log = EventLog(ann)

        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        try await eventually("ann notices the new key") { try ann.trust.status(of: bobID) == .unverified }
        try await eventually("the event arrives") { log.all.contains(.identityKeyChanged(accountID: bobID, sendingBlocked: false)) }
        let warning = try #require(try ann.history.messages(in: chat.id).last)
        #expect(warning.kind == Message.keyChangeKind && warning.isLocalEntry)
        #expect(warning.text.contains("identity key of bob@example.org changed"))
        #expect(log.all.contains(.message(warning)))

        // Not verified before, so not blocked: the message goes out on the new session.
        let after = try #require(try await ann.send("after", to: chat.id).message)
        try await eventually("bob reads the new one") { try bob.history.message(after.id)?.text == "after" }
        #expect(try await ann.trust.acceptIdentityChange(of: "bob@example.org") == .trusted)
        #expect(try ann.trust.status(of: bobID) == .trusted)
        await #expect(throws: ClientError.self) { try await ann.trust.acceptIdentityChange(of: "bob@example.org") }
        // Exactly one warning for one change.
        #expect(try ann.history.messages(in: chat.id).filter { $0.kind == Message.keyChangeKind }.count == 1)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func aVerifiedContactsKeyChangeBlocksUntilAccepted() async throws {
        let harness = try await ClientHarness.start()
        let (ann, bob, chat, bobID) = try await harness.acquaintances()
        let log = EventLog(ann)
        let shown = try await ann.trust.verification(of: "bob@example.org")
        #expect(try await ann.trust.markVerified("bob@example.org", comparedNumber: shown.safetyNumber).status == .verified)
        let oldKey = await bob.identityKey

        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: KeyEnvelope.minimumSealIterations)
        try await eventually("ann notices the new key") { try ann.trust.status(of: bobID) == .unverified }
        try await eventually("the event arrives") { log.all.contains(.identityKeyChanged(accountID: bobID, sendingBlocked: true)) }
        #expect(try await ann.trust.verification(of: "bob@example.org").sendingBlocked)
        let warning = try #require(try ann.history.messages(in: chat.id).last)
        #expect(warning.kind == Message.keyChangeKind && warning.text.contains("parley verify accept bob@example.org"))

        // Sending is refused with an error naming bob, never a key, and nothing is queued.
        let refusal = await #expect(throws: ClientError.self) { try await ann.send("blocked?", to: chat.id) }
        #expect(refusal == .identityKeyChanged("bob@example.org"))
        let text = refusal?.description ?? ""
        #expect(text.contains("bob@example.org") && text.contains("parley verify accept"))
        #expect(!text.contains(Data(oldKey).base64EncodedString()) && !text.contains(oldKey.hex))
        #expect(try await ann.pendingCount() == 0)

        // What bob sends meanwhile is held, not dropped and not trusted.
        let fromBob = try #require(try await bob.send("new phone, same bob", to: chat.id).message)
        try await eventually("ann holds bob's message") { try ann.history.message(fromBob.id)?.heldForKeyChange == true }
        #expect(try ann.history.message(fromBob.id)?.text == "")

        // A number compared before the change no longer verifies anything.
        await #expect(throws: ClientError.self) { try await ann.trust.markVerified("bob@example.org", comparedNumber: shown.safetyNumber) }
        #expect(try await ann.trust.acceptIdentityChange(of: "bob@example.org") == .trusted)
        #expect(try ann.history.message(fromBob.id)?.text == "new phone, same bob")
        #expect(try ann.history.message(fromBob.id)?.heldForKeyChange == nil)
        let unblocked = try #require(try await ann.send("welcome back", to: chat.id).message)
        try await eventually("bob reads it") { try bob.history.message(unblocked.id)?.text == "welcome back" }

        // The status survives a restart of the client (it lives in the sealed store).
        #expect(try await ann.trust.markVerified("bob@example.org").status == .verified)
        await ann.close()
        let reopened = try ParleyClient.open(home: harness.home("ann"), email: "ann@example.org", pin: nil)
        #expect(try reopened.trust.status(of: bobID) == .verified)
        await bob.disconnect()
        try await harness.stop()
    }

    @Test func scanningTheRightCodeVerifiesAndAWrongOneChangesNothing() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carol = try await harness.person("carol")
        let chat = try await ann.startConversation(with: "bob@example.org")
        try await bob.requests.accept(chat.id)
        _ = try await ann.send("hi", to: chat.id)
        let bobID = try #require(await bob.accountID)

        // Someone shows a code with bob's address and carol's key: refused, bob stays trusted.
        let forged = try VerificationPayload(accountID: "bob@example.org", identityKey: await carol.identityKey)
        let mismatch = await #expect(throws: ClientError.self) { try await ann.trust.verify(scannedPayload: Array(forged.qrText.utf8)) }
        #expect(mismatch?.description.contains("does not match the identity key this device has for bob@example.org") == true)
        #expect(try ann.trust.status(of: bobID) == .trusted)
        let own = Array(ann.verificationPayload.qrText.utf8)
        await #expect(throws: ClientError.self) { try await ann.trust.verify(scannedPayload: own) }
        await #expect(throws: ClientError.self) { try await ann.trust.verify(scannedPayload: Array("https://example.org".utf8)) }

        let verified = try await ann.trust.verify(scannedPayload: Array(bob.verificationPayload.qrText.utf8))
        #expect(verified.status == .verified && verified.email == "bob@example.org")
        #expect(try ann.trust.status(of: bobID) == .verified)
        // A contact this device never talked to is looked up on the server by the code's e-mail.
        let carolID = try #require(await carol.accountID)
        #expect(try await ann.trust.verify(scannedPayload: Array(carol.verificationPayload.qrText.utf8)).accountID == carolID)
        for client in [ann, bob, carol] { await client.disconnect() }
        try await harness.stop()
    }
}
