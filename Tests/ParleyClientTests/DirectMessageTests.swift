import Foundation
import ParleyClient
import Testing

@Suite("Client: direct messages end to end")
struct DirectMessageTests {
    @Test func annAndBobTalkAndReply() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let sent = try #require(try await ann.send("hello bob", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(sent.id)?.text == "hello bob" }

        let reply = try #require(try await bob.send("hi ann", to: chat.id, replyTo: sent.id).message)
        try await eventually("ann receives the reply") { try ann.history.message(reply.id)?.replyTo == sent.id }
        #expect(try ann.history.message(reply.id)?.text == "hi ann")
        // A second round uses the ratchet, not the prekey message.
        let again = try #require(try await ann.send("second", to: chat.id).message)
        try await eventually("bob receives the second") { try bob.history.message(again.id)?.text == "second" }
        #expect(try bob.history.messages(in: chat.id).map(\.text) == ["hello bob", "hi ann", "second"])
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }
}
