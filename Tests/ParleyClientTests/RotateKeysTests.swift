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
        try await eventually("bob reads it") { try await bob.storedMessage(before.id) != nil }
        let oldKey = await ann.identityKey

        try await ann.rotateKeys(password: "correct horse ann", envelopeIterations: 210_000)
        #expect(await ann.identityKey != oldKey)
        #expect(try await ann.checkPassword("correct horse ann"))

        // Both directions work on fresh sessions; ann still logs in with her new auth key.
        let after = try #require(try await ann.send("new keys", to: chat.id).message)
        try await eventually("bob reads the new one") { try await bob.storedMessage(after.id)?.text == "new keys" }
        let reply = try #require(try await bob.send("got it", to: chat.id).message)
        try await eventually("ann reads bob") { try await ann.storedMessage(reply.id)?.text == "got it" }
        await ann.disconnect()
        try await ann.connect(reconnect: false)
        #expect(await ann.isConnected)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
