import Foundation
import Testing
@testable import ParleyServer

/// `get_conversation`: one conversation as `list_conversations` lists it, to members only (docs/API.md §5).
@Suite struct GetConversationTests {
    @Test("a member reads the conversation as listed; anyone else, any other id and bad input get a clear refusal",
          arguments: StoreBackend.allCases)
    func oneConversation(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let direct = try await people.directConversation()
        let group = try #require(try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])["conversation_id"] as? Int)

        let listed = try #require(try await people.annSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        for id in [direct, group] {
            let one = try await people.annSocket.call("get_conversation", ["conversation_id": id])
            let fromList = try #require(listed.first { $0["conversation_id"] as? Int == id })
            for field in ["conversation_id", "kind", "creator_id", "members", "unread", "created_at"] {
                #expect("\(one[field] ?? "nil")" == "\(fromList[field] ?? "nil")", "\(field) of \(id)")
            }
        }
        // Bob is only invited to the group: it does not exist for him yet, exactly as an id never used.
        let invited = try await people.bobSocket.call("get_conversation", ["conversation_id": group])
        let never = try await people.bobSocket.call("get_conversation", ["conversation_id": 987_654])
        #expect(invited.errorCode == "not_found" && never.errorCode == "not_found")
        #expect(invited.errorMessage == never.errorMessage)
        #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).ok)
        #expect((try await people.bobSocket.call("get_conversation", ["conversation_id": group])["members"] as? [Int])?.count == 2)

        for bad: Any in ["7", -1, 1.5, [1], NSNull()] {
            let answer = try await people.annSocket.call("get_conversation", ["conversation_id": bad])
            #expect(answer.errorCode == "invalid_field" || answer.errorCode == "not_found", "\(bad): \(answer)")
        }
        #expect(try await people.annSocket.call("get_conversation").errorCode == "missing_field")
        // The connection is still usable.
        #expect(try await people.annSocket.call("get_conversation", ["conversation_id": direct]).ok)
        try await people.server.stop()
    }
}
