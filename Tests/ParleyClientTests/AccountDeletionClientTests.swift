import Foundation
@testable import ParleyClient
import Testing

@Suite("Client: deleting the account")
struct AccountDeletionClientTests {
    @Test func aDeletedAccountIsErasedHereAndGoneForItsContacts() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let hello = try #require(try await ann.send("hello", to: chat.id).message)
        try await eventually("bob receives") { try bob.history.message(hello.id) != nil }
        let annID = try #require(await ann.accountID)
        let bobEvents = bob.events()

        let directory = ann.directory
        try await ann.deleteAccount()
        #expect(!FileManager.default.fileExists(atPath: directory.path), "ann's local data is erased")
        #expect(AccountHome.accounts(in: harness.home("ann")).isEmpty)

        // Bob hears it; what he already holds stays on his device; writing to her finds nobody.
        var heard = false
        for await event in bobEvents {
            if case .server(.accountDeleted(let deleted)) = event, deleted.accountID == annID { heard = true; break }
        }
        #expect(heard)
        #expect(try bob.history.message(hello.id)?.text == "hello")
        await #expect(throws: ClientError.self) { _ = try await bob.startConversation(with: "ann@example.org") }
        await bob.disconnect()
        try await harness.stop()
    }
}
