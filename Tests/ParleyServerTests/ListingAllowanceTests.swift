import Foundation
import Testing
@testable import ParleyServer

/// `list_conversations` is paid for by the length of its answer (docs/API.md §11): a member of many large groups
/// cannot have the server build its whole list at the request rate, and nobody else is slowed.
@Suite struct ListingAllowanceTests {
    @Test("an ordinary list can be asked for as often as the connection's request budget allows (default limits)", arguments: StoreBackend.allCases)
    func ordinaryListsAreNeverPaced(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        _ = try await people.directConversation()
        _ = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
        for call in 1...90 {
            let answer = try await people.annSocket.call("list_conversations")
            #expect(answer.ok, "call \(call): \(answer)")
            guard answer.ok else { break }
        }
        try await people.server.stop()
    }

    @Test("a long list is paid for: the next listing waits, other requests and other accounts do not", arguments: StoreBackend.allCases)
    func longListsArePaidFor(backend: StoreBackend) async throws {
        // The limit under test, lowered so a list of about 600 items is long: 100 items a second, bursts of 1,000.
        let people = try await TwoPeople.start(backend: backend) { $0.accountListedItemsPerSecond = 100 }
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        var others: [Int64] = []
        for index in 0..<150 { others.append(try await Sample.activeAccount(store, "member\(index)@example.org")) }
        var firstGroup: Int?
        for _ in 0..<4 {
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: others, now: people.server.clock.now()).conversation
            for member in others { try await store.setMemberStatus(conversationID: group.id, accountID: member, status: .active, now: people.server.clock.now()) }
            firstGroup = firstGroup ?? Int(group.id)
        }

        // 4 groups of 151 members: 608 items. The first two lists are answered in full (the second runs into debt).
        for _ in 0..<2 {
            let answer = try await people.annSocket.call("list_conversations")
            let listed = try #require(answer["conversations"] as? [[String: Any]], "\(answer)")
            #expect(listed.count == 4)
            #expect(listed.allSatisfy { ($0["members"] as? [Int])?.count == 151 })
        }
        let paced = try await people.annSocket.call("list_conversations")
        #expect(paced.errorCode == "rate_limited")
        #expect(paced.errorMessage?.contains("ask again in 3 s") == true, "\(paced)")
        let wait = (paced["error"] as? [String: Any])?["details"] as? [String: Any]
        #expect(wait?["retry_after"] as? Int == 3)

        // Meanwhile everything else goes on: ann's other requests (one conversation too, counted but not paced), and
        // bob's own list.
        let one = try await people.annSocket.call("get_conversation", ["conversation_id": try #require(firstGroup)])
        #expect((one["members"] as? [Int])?.count == 151, "\(one)")
        #expect(try await people.annSocket.call("list_invitations").ok)
        #expect(try await people.annSocket.call("whoami").ok)
        #expect(try await people.bobSocket.call("list_conversations").ok)

        // Still in debt a moment before the wait is over (the one conversation, 152 items, added 1.52 s); answered once it is.
        people.server.clock.advance(milliseconds: 3_500)
        #expect(try await people.annSocket.call("list_conversations").errorCode == "rate_limited")
        people.server.clock.advance(milliseconds: 300)
        let again = try await people.annSocket.call("list_conversations")
        #expect((again["conversations"] as? [Any])?.count == 4, "\(again)")
        try await people.server.stop()
    }
}
