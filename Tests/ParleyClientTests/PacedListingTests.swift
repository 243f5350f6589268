import Foundation
@testable import ParleyClient
import ParleyServer
import Testing

/// The server pays for long lists by pacing `list_conversations` (docs/API.md §11); the client must go on: its
/// stored list stands, and a changed conversation is read alone (`get_conversation`, never paced).
@Suite("Client: a paced conversation list")
struct PacedListingTests {
    @Test("while the list must wait the client shows what it stored, reconnects, and still learns of a new member")
    func pacedList() async throws {
        // The limit under test, lowered so far that one small answer puts ann's listings minutes into debt.
        let harness = try await ClientHarness.start { $0.accountListedItemsPerSecond = 0.01 }
        let ann = try await harness.person("ann")
        let bob = try await harness.person("bob")
        let group = try await ann.groups.create(title: "Trip", inviting: ["bob@example.org"])
        for _ in 0..<3 {
            let listed = try await ann.conversations()
            #expect(listed.map(\.id) == [group.id], "the stored list, not an error")
        }
        // A reconnect lists conversations too: it goes on without them.
        await ann.disconnect()
        try await ann.connect()

        _ = try await bob.groups.accept(group.id)
        let bobID = try #require(await bob.accountID)
        try await eventually("ann's device learns bob joined, though the list must wait") {
            try await ann.conversations().first { $0.id == group.id }?.members.contains(bobID) == true
        }
        try await harness.stop()
    }
}
