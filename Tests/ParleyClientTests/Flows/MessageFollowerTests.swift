import Foundation
import ParleyClient
import ParleyWire
import Synchronization
import Testing

@Suite("Flows: reading and following messages")
struct MessageFollowerTests {
    @Test("following ends when this account is disabled or deleted, not when someone else's is")
    func endings() {
        #expect(MessageFollower.end(for: .server(.accountDisabled(.init(accountID: 7))), own: 7) == .accountDisabled)
        #expect(MessageFollower.end(for: .server(.accountDeleted(.init(accountID: 7))), own: 7) == .accountDeleted)
        #expect(MessageFollower.end(for: .server(.accountDeleted(.init(accountID: 8))), own: 7) == nil)
        #expect(MessageFollower.end(for: .server(.accountDeleted(.init(accountID: 8))), own: nil) == nil)
        #expect(MessageFollower.end(for: .server(.userOnline(.init(accountID: 7))), own: 7) == nil)
        #expect(FollowEnd.accountDisabled.description == "this account is disabled; ask the server's operator")
        #expect(FollowEnd.accountDeleted.description == "this account was deleted; 'parley account logout --yes' erases this device's copy")
    }

    @Test("the first batch is what is new, once (a message request's only counted); a conversation's history is shown again")
    func firstBatch() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let sent = try #require(try await ann.send("hello bob", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(sent.id) != nil }

        // Ann is no contact of Bob's yet: her first message waits in a message request, and is only counted.
        let request = try await MessageReading(client: bob, conversation: nil, limit: 50).first(offline: false)
        #expect(request == .init(messages: [], inRequests: [chat.id: 1]))
        try await bob.requests.accept(chat.id)
        let again = try #require(try await ann.send("are you there?", to: chat.id).message)
        try await eventually("bob receives again") { try bob.history.message(again.id) != nil }
        let reading = MessageReading(client: bob, conversation: nil, limit: 50)
        let new = try await reading.first(offline: false)
        #expect(new.messages.map(\.text) == ["are you there?"])
        // Until the command says it showed them (its output may break off), they stay new.
        #expect(try await reading.first(offline: false).messages.map(\.text) == ["are you there?"])
        try reading.shown(new)
        #expect(try await reading.first(offline: false).messages.isEmpty)
        let history = try await MessageReading(client: bob, conversation: chat.id, limit: 50).first(offline: false)
        #expect(history.messages.map(\.id) == [sent.id, again.id])
        // Offline, a history still shows; everything new cannot be fetched, so nothing is shown.
        #expect(try await MessageReading(client: bob, conversation: chat.id, limit: 50).first(offline: true).messages.map(\.id) == [sent.id, again.id])
        #expect(try await MessageReading(client: bob, conversation: nil, limit: 50).first(offline: true) == .init(messages: []))
        // A hostile limit does not crash; a conversation this device does not know has no history.
        await #expect(throws: ClientError.self) { try await MessageReading(client: bob, conversation: 9_999_999, limit: 0).first(offline: true) }
        do {
            _ = try await MessageReading(client: bob, conversation: 9_999_999, limit: 50).first(offline: false)
            Issue.record("a conversation this device is not in has no history to show")
        } catch {
            #expect("\(error)".contains("there is no conversation 9999999 on this device"), "\(error)")
        }
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }

    @Test("following hands over each arriving message of the followed conversation, and marks it shown")
    func follows() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let carol = try await harness.person("carol")
        let withAnn = try await ann.startConversation(with: "bob@example.org")
        let withCarol = try await carol.startConversation(with: "bob@example.org")

        let follower = MessageFollower(client: bob, conversation: withAnn.id)
        let shown = Mutex<[String]>([])
        let following = Task { try await follower.follow { message in shown.withLock { $0.append(message.text) } } }
        _ = try await carol.send("not followed", to: withCarol.id)
        _ = try await ann.send("followed", to: withAnn.id)
        try await eventually("bob shows ann's message") { shown.withLock { $0 } == ["followed"] }
        following.cancel()
        _ = try? await following.value
        #expect(shown.withLock { $0 } == ["followed"])
        #expect(try await follower.catchUp().isEmpty, "a followed message was left unseen")
        for client in [ann, bob, carol] { await client.disconnect() }
        try await harness.stop()
    }
}
