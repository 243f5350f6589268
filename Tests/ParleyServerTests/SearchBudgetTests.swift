import Foundation
import Testing

/// `search_messages` through the wire, on a default server: a search that would read too much is refused in words
/// that say how to narrow it, and searches are paid for from the listing allowance (docs/API.md §5).
@Suite struct SearchBudgetTests {
    @Test("a search over too many messages is refused in words; narrowed, it answers; the connection goes on")
    func tooBroadInWords() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        try await SearchBoundConformanceTests.fill(people.server.opened.store, conversation: Int64(conversation), sender: Int64(people.bobID), count: 300_000)
        let broad = try await people.annSocket.call("search_messages", ["kind": "no-such-kind"])
        #expect(broad.errorCode == "quota_exceeded", "\(broad)")
        #expect(broad.errorMessage?.contains("name a conversation (conversation_id) or a shorter time (from_ts, to_ts)") == true, "\(broad)")
        let narrow = try await people.annSocket.call(
            "search_messages", ["conversation_id": conversation, "kind": "text", "from_ts": 299_991, "limit": 5])
        #expect((narrow["messages"] as? [[String: Any]])?.count == 5, "\(narrow)")
        #expect(try await people.annSocket.call("whoami").ok)
        try await people.server.stop()
    }

    @Test("searches are paid for: twenty at once pass, then the account waits; others do not")
    func paced() async throws {
        let people = try await TwoPeople.start()
        var refused: [String: Any]?
        for index in 0..<25 {
            let answer = try await people.annSocket.call("search_messages", ["kind": "text"])
            if answer.errorCode == "rate_limited" {
                refused = answer
                #expect(index >= 20, "refused after \(index) searches")
                break
            }
            #expect(answer.ok, "\(answer)")
        }
        let paced = try #require(refused, "25 searches at once all passed")
        let details = (paced["error"] as? [String: Any])?["details"] as? [String: Any]
        #expect((details?["retry_after"] as? Int ?? 0) >= 1, "\(paced)")
        #expect(try await people.bobSocket.call("search_messages", ["kind": "text"]).ok, "bob's allowance is his own")
        people.server.clock.advance(milliseconds: 2_000)
        #expect(try await people.annSocket.call("search_messages", ["kind": "text"]).ok)
        try await people.server.stop()
    }
}
