import Foundation
import ParleyClient
import Testing

@Suite("Flows: sending whether or not the server answers")
struct OfflineSessionTests {
    @Test("connected, text to a person starts the conversation and goes out at once")
    func onlineSends() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let session = try await OfflineSession.open(ann)
        #expect(session.offline == nil)
        let outcome = try await session.send("hello bob", to: .person("bob@example.org"))
        let sent = try #require(outcome.message)
        try await eventually("bob receives") { try bob.history.message(sent.id)?.text == "hello bob" }
        #expect(try await session.conversation(for: .conversation(sent.conversationID)) == sent.conversationID)
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }

    @Test("offline, text to a person this device talked to is queued in their conversation, found by e-mail in any case")
    func offlineQueues() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        _ = try await ann.send("first, online", to: chat.id)
        await bob.disconnect()
        await ann.disconnect()
        try await harness.server.stop()

        let session = try await OfflineSession.open(ann)
        #expect(session.offline != nil)
        #expect(try await OfflineSession.directConversation(with: "BOB@Example.ORG", client: ann) == chat.id)
        let outcome = try await session.send("written on the train", to: .person("Bob@Example.org"))
        #expect(outcome.message == nil, "nothing can be sent without the server")
        await ann.disconnect()
        try? FileManager.default.removeItem(at: harness.root)
    }

    @Test("offline, a person this device never talked to (or garbage) is refused in words, and nothing is queued")
    func offlineRefusesStrangers() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        await ann.disconnect()
        try await harness.server.stop()
        let session = try await OfflineSession.open(ann)
        #expect(session.offline != nil)
        let hostile = ["carol@example.org", "", "\u{1B}[2J@example.org", String(repeating: "x", count: 100_000) + "@example.org", "bob\0@example.org"]
        for email in hostile {
            await #expect(throws: OfflineSendError.noConversationOffline(email: email)) {
                _ = try await session.send("hello", to: .person(email))
            }
        }
        #expect(OfflineSendError.noConversationOffline(email: "carol@example.org").description
            == "nothing was queued: this device has no conversation with carol@example.org yet, and starting one needs the server; try again when it is reachable")
        #expect(try await ann.conversations().isEmpty)
        await ann.disconnect()
        try? FileManager.default.removeItem(at: harness.root)
    }

    @Test("a failure that is an answer, not an absence, is thrown rather than worked around")
    func answersAreThrown() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        // A conversation that does not exist: the server answers, and the client's refusal comes through as such.
        let session = try await OfflineSession.open(ann)
        #expect(session.offline == nil)
        await #expect(throws: OfflineSendError.self) { _ = try await session.send("hello", to: .person("not an address")) }
        await ann.disconnect()
        try await harness.stop()
    }
}
