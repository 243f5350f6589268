import Foundation
import Testing
@testable import ParleyServer

/// A group holds at most 257 people, members and invitations together (docs/API.md §5): `add_member` could grow one
/// without end before, and with it every member's list and every message's fan-out.
@Suite struct GroupSeatsTests {
    @Test("add_member past 257 people is refused in the user's words, nothing stored; invitations at once cannot pass it together",
          arguments: StoreBackend.allCases)
    func aFullGroupTakesNoMore(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let store = people.server.opened.store
        var emails: [String] = []
        for index in 0..<254 {
            let email = "seat\(index)@example.org"
            _ = try await Sample.activeAccount(store, email)
            emails.append(email)
        }
        for email in ["x1@example.org", "x2@example.org", "x3@example.org"] { _ = try await Sample.activeAccount(store, email) }
        let created = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email] + emails])
        let group = try #require(created["conversation_id"] as? Int, "\(created)")
        #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).ok)

        // 256 seats taken (ann, bob, 254 invited): two members invite at once, for the last seat.
        async let fromAnn = people.annSocket.call("add_member", ["conversation_id": group, "email": "x1@example.org"])
        async let fromBob = people.bobSocket.call("add_member", ["conversation_id": group, "email": "x2@example.org"])
        let answers = try await [fromAnn, fromBob]
        #expect(answers.filter(\.ok).count == 1, "\(answers)")
        let refused = try #require(answers.first { !$0.ok })
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage == "this group has 257 members and invitations already, the most a group may have")

        let third = try await people.annSocket.call("add_member", ["conversation_id": group, "email": "x3@example.org"])
        #expect(third.errorCode == "quota_exceeded")
        let x3 = try #require(try await store.account(email: "x3@example.org")).id
        #expect(try await store.memberStatus(conversationID: Int64(group), accountID: x3) == nil, "nothing was stored")
        let seated = try await store.activeMemberIDs(conversationID: Int64(group)).count
        #expect(seated == 2)

        // A seat given up (an invitee removed before answering) can be taken again.
        let first = try #require(try await store.account(email: emails[0])).id
        #expect(try await people.annSocket.call("remove_member", ["conversation_id": group, "account_id": first]).ok)
        #expect(try await people.annSocket.call("add_member", ["conversation_id": group, "email": "x3@example.org"]).ok)
        try await people.server.stop()
    }
}
