import Foundation
import ParleyClient
import Testing

/// A contact's new name reaches the people who talk with them without anyone asking: the server's
/// `profile_updated` notice makes each of their devices read the profile again.
@Suite("Client: a contact's new name")
struct ProfileChangeTests {
    @Test("after ann renames herself, bob's device knows her new name; a stranger's device learns nothing")
    func aNewNameArrives() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let eve = try await harness.person("eve")
        let annID = try #require(await ann.accountID)
        let chat = try await ann.startConversation(with: "bob@example.org")
        _ = try await ann.send("hello", to: chat.id)
        try await bob.requests.accept(chat.id)
        _ = try await bob.sync()
        try await eventually("bob knows ann's first name") { try bob.contacts.contact(annID)?.displayName == "Ann" }

        try await ann.profiles.update(displayName: "Ann L.")
        try await eventually("bob's device hears ann's new name") { try bob.contacts.contact(annID)?.displayName == "Ann L." }
        #expect(try eve.contacts.contact(annID) == nil, "a stranger is not told")
        for client in [ann, bob, eve] { await client.disconnect() }
        try await harness.stop()
    }
}
