import Foundation
@testable import ParleyClient
import ParleyProtocol
import Testing

@Suite("Client: recovering from a lost session")
struct SessionResetTests {
    @Test func undecryptableMessageIsShownAndTheNextOneArrives() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let first = try #require(try await ann.send("one", to: chat.id).message)
        try await eventually("bob reads one") { try await bob.storedMessage(first.id)?.text == "one" }
        _ = try await bob.send("ack", to: chat.id)   // ann's next message is a plain ratchet message

        // Bob loses his session with ann (a restored backup, a bug): her next message cannot be read.
        let annID = try #require(await ann.accountID)
        try await bob.protocolStore.deleteSession(for: try ProtocolAddress(accountId: String(annID), deviceId: 1))
        let lost = try #require(try await ann.send("two", to: chat.id).message)
        try await eventually("bob marks it undecryptable") { try await bob.storedMessage(lost.id)?.undecryptable == true }

        // Bob asked ann to reset; her next message starts a new session and arrives.
        try await eventually("ann dropped the session") { try await ann.hasSession(try #require(await bob.accountID), 1) == false }
        let third = try #require(try await ann.send("three", to: chat.id).message)
        try await eventually("bob reads three") { try await bob.storedMessage(third.id)?.text == "three" }
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }
}
