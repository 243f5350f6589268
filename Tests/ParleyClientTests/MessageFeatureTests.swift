import Foundation
import ParleyClient
import ParleyClientFormats
import Testing

@Suite("Client: message features end to end")
struct MessageFeatureTests {
    @Test func reactionsPinsDeleteForwardReceiptsAndSearch() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let annID = try #require(await ann.accountID), bobID = try #require(await bob.accountID)
        let chat = try await ann.startConversation(with: "bob@example.org")
        let first = try #require(try await ann.send("the quarterly numbers are ready", to: chat.id).message)
        try await eventually("bob has it") { try bob.history.message(first.id) != nil }
        try await eventually("ann sees delivery") { try ann.history.message(first.id)?.deliveredTo == [bobID] }

        // Reactions toggle, and the other side sees them.
        #expect(try await bob.messageActions.react("👍", to: first.id))
        try await eventually("ann sees 👍") { try ann.history.message(first.id)?.hasReaction("👍", from: bobID) == true }
        #expect(try await bob.messageActions.react("👍", to: first.id) == false)
        try await eventually("ann sees it gone") { try ann.history.message(first.id)?.reactions.isEmpty == true }
        await #expect(throws: ClientError.self) { try await bob.messageActions.react("🦄", to: first.id) }

        // Pins.
        try await bob.messageActions.pin(first.id)
        try await eventually("ann sees the pin") { try ann.history.message(first.id)?.pinned == true }

        // Forward into a group, with attribution.
        let group = try await bob.groups.create(title: "Finance", inviting: ["ann@example.org"])
        _ = try await ann.groups.accept(group.id)
        let forwarded = try #require(try await bob.forward(first.id, to: group.id).message)
        #expect(forwarded.forwardedFrom == ForwardSource(senderID: annID, timestamp: first.timestamp))
        try await eventually("ann gets the forward") { try ann.history.message(forwarded.id)?.forwardedFrom?.senderID == annID }

        // Client-side search over decrypted history, then delete: gone from search and for both sides.
        #expect(try bob.history.search("QUARTERLY numbers").map(\.id).contains(first.id))
        #expect(try bob.history.search("quarterly", in: chat.id).map(\.id) == [first.id])
        #expect(try bob.history.search("nonexistent").isEmpty)
        try await ann.messageActions.delete(first.id)
        try await eventually("bob sees the deletion") { try bob.history.message(first.id)?.deleted == true }
        #expect(try bob.history.search("quarterly", in: chat.id).isEmpty)
        await #expect(throws: ClientError.self) { try await bob.messageActions.delete(forwarded.id + 1000) }

        try await bob.messageActions.markRead(conversation: chat.id)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func offlineDeliveryDuplicatesAndOutOfOrder() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        _ = try await ann.send("warm-up", to: chat.id)
        try await eventually("bob synced") { try bob.history.messages(in: chat.id).count == 1 }
        await bob.disconnect()
        var sent: [Int64] = []
        for i in 1...20 { sent.append(try #require(try await ann.send("offline \(i)", to: chat.id).message).id) }
        try await bob.connect()
        #expect(try bob.history.messages(in: chat.id).map(\.text) == ["warm-up"] + (1...20).map { "offline \($0)" })
        // A second sync (as after a lost confirmation) stores nothing twice.
        #expect(try await bob.sync().isEmpty)
        #expect(try bob.history.messages(in: chat.id).count == 21)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
