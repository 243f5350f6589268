import Foundation
import ParleyClient
import Testing

@Suite("Flows: a conversation's pinned messages")
struct PinnedMessagesTests {
    @Test("pins made by another member show after the refresh; a deleted pinned message does not")
    func pinsAsMembersSeeThem() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let kept = try #require(try await ann.send("the address", to: chat.id).message)
        let gone = try #require(try await ann.send("a mistake", to: chat.id).message)
        _ = try await ann.send("not pinned", to: chat.id)
        try await eventually("bob receives") { try bob.history.message(gone.id) != nil }
        try await ann.messageActions.pin(kept.id)
        try await ann.messageActions.pin(gone.id)
        try await ann.messageActions.delete(gone.id)
        #expect(try await PinnedMessages.of(chat.id, client: bob).map(\.id) == [kept.id])
        #expect(try await PinnedMessages.of(chat.id, client: ann).map(\.id) == [kept.id])
        // A conversation this device does not know is said to be unknown, not one without pins.
        await #expect(throws: ClientError.invalidInput("there is no conversation 9999999 on this device ('parley conversations' lists them)")) {
            try await PinnedMessages.of(9_999_999, client: bob)
        }
        // Pinning again, or unpinning what is not pinned, changes nothing and says so.
        #expect(try await ann.messageActions.pin(kept.id) == false)
        #expect(try await bob.messageActions.pin(kept.id, false) == true)
        #expect(try await bob.messageActions.pin(kept.id, false) == false)
        await ann.disconnect()
        await bob.disconnect()
        try await harness.stop()
    }
}
