import Foundation
import ParleyClient
import Testing

@Suite("Client: key rotation")
struct RotateKeysTests {
    @Test func contactsKeepTalkingAfterARotation() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let before = try #require(try await ann.send("old keys", to: chat.id).message)
        try await eventually("bob reads it") { try bob.history.message(before.id) != nil }
        let oldKey = await ann.identityKey

        try await ann.rotateKeys(password: "correct horse ann", envelopeIterations: 210_000)
        #expect(await ann.identityKey != oldKey)
        #expect(try ann.registration.checkPassword("correct horse ann"))

        // Both directions work on fresh sessions; ann still logs in with her new auth key.
        let after = try #require(try await ann.send("new keys", to: chat.id).message)
        try await eventually("bob reads the new one") { try bob.history.message(after.id)?.text == "new keys" }
        let reply = try #require(try await bob.send("got it", to: chat.id).message)
        try await eventually("ann reads bob") { try ann.history.message(reply.id)?.text == "got it" }
        await ann.disconnect()
        try await ann.connect(reconnect: false)
        #expect(await ann.isConnected)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a rotation removes the other device at once; what an offline contact sent on the old keys is read; the contact learns the new key")
    func rotationKeepsTheAccountReachable() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let (phone, phoneID) = try await DevicePairingClientTests.pair(bob, name: "phone", home: harness.home("bob-phone"), harness: harness)
        let chat = try await ann.startConversation(with: "bob@example.org")
        let hello = try #require(try await ann.send("hello", to: chat.id).message)
        try await eventually("bob reads hello") { try bob.history.message(hello.id)?.text == "hello" }
        let hi = try #require(try await bob.send("hi", to: chat.id).message)
        try await eventually("ann reads hi") { try ann.history.message(hi.id)?.text == "hi" }
        #expect(try ann.trust.status(of: try #require(await bob.accountID)) == .trusted)

        // Ann is offline while bob rotates; she had written one message before, and writes another after.
        await bob.disconnect()
        let inFlight = try #require(try await ann.send("written before the rotation", to: chat.id).message)
        await ann.disconnect()
        try await bob.connect()
        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: 210_000)
        #expect(try await bob.devices.list().map(\.id) == [1], "the phone left the device list at once")
        _ = phoneID
        await phone.disconnect()
        let queued = try await ann.send("written after, on the old session", to: chat.id)
        try await ann.connect()
        _ = try await ann.sync()

        for (id, text) in [(inFlight.id, "written before the rotation")] {
            try await eventually("bob reads \(text)") { try bob.history.message(id)?.text == text }
        }
        try await eventually("bob reads what ann queued") {
            try bob.history.messages(in: chat.id).contains { $0.text == "written after, on the old session" }
        }
        _ = queued
        // A new contact reaches bob at once (no envelope is owed to the removed phone).
        let carl = try await harness.person("carl")
        let carlChat = try await carl.startConversation(with: "bob@example.org")
        let fromCarl = try #require(try await carl.send("hello bob", to: carlChat.id).message)
        try await eventually("bob reads carl") { try bob.history.message(fromCarl.id)?.text == "hello bob" }
        // Bob's reply starts a session under his new key: ann reads it and sees the key change.
        let reply = try #require(try await bob.send("new keys here", to: chat.id).message)
        try await eventually("ann reads bob's reply") { try ann.history.message(reply.id)?.text == "new keys here" }
        // (The status drops in the same sync, once its messages are stored.)
        let bobID = try #require(await bob.accountID)
        try await eventually("ann sees bob's key change") { try ann.trust.status(of: bobID) == .unverified }
        for client in [ann, bob, carl] { await client.disconnect() }
        try await harness.stop()
    }

    @Test("a first message made from a bundle fetched before the rotation still opens: the retired identity answers it")
    func firstMessageFromAnOldBundle() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        await bob.disconnect()
        let chat = try await ann.startConversation(with: "bob@example.org")
        let first = try #require(try await ann.send("made from your old bundle", to: chat.id).message)
        try await bob.connect(catchUp: false)
        try await bob.rotateKeys(password: "correct horse bob", envelopeIterations: 210_000)
        _ = try await bob.sync()
        let stored = try #require(try bob.history.message(first.id))
        #expect(stored.text == "made from your old bundle" && !stored.undecryptable)
        // Bob's answer goes out under his new identity, and ann reads it.
        let reply = try #require(try await bob.send("read it", to: chat.id).message)
        try await eventually("ann reads the reply") { try ann.history.message(reply.id)?.text == "read it" }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
