import Foundation
import Testing

/// `get_identity_keys`: a device that was away learns which contacts rotated their keys (docs/API.md §4).
@Suite struct GetIdentityKeysTests {
    static func key(_ account: TestAccount) -> String { account.identity.publicKey.rawRepresentation.base64EncodedString() }

    @Test("contacts' current keys, nobody else's; after a rotation the new key", arguments: StoreBackend.allCases)
    func contactsOnly(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let carol = TestAccount("carol@example.org")
        try await people.server.createAccount(carol, on: try people.server.connect())
        let carolID = try #require(try await people.server.login(carol, on: try people.server.connect())["account_id"] as? Int)

        // Before any conversation bob is a stranger: nothing.
        #expect((try await people.annSocket.call("get_identity_keys", ["account_ids": [people.bobID]])["keys"] as? [Any])?.isEmpty == true)
        _ = try await people.directConversation()
        let answer = try await people.annSocket.call("get_identity_keys", ["account_ids": [people.bobID, carolID, people.annID, 999_999, people.bobID]])
        let keys = try #require(answer["keys"] as? [[String: Any]], "\(answer)")
        #expect(keys.count == 1, "only bob shares a conversation with ann: \(keys)")
        #expect(keys.first?["account_id"] as? Int == people.bobID)
        #expect(keys.first?["identity_key"] as? String == Self.key(people.bob))

        let rotated = TestAccount(people.bob.email)
        #expect(try await people.bobSocket.call("rotate_keys", rotated.rotateFields).ok)
        let after = try await people.annSocket.call("get_identity_keys", ["account_ids": [people.bobID]])
        #expect((after["keys"] as? [[String: Any]])?.first?["identity_key"] as? String == Self.key(rotated))
        try await people.server.stop()
    }

    /// Ann wrote to Bob, a stranger, and Bob has not answered: both already write to the other's key, so a rotation
    /// reaches the other (`keys_updated` if connected, `get_identity_keys` after) — until the request is declined.
    @Test("a request waiting for an answer: each side hears the other's rotation; declined, neither", arguments: StoreBackend.allCases)
    func requestPartners(backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation(accepted: false)
        for (socket, other, id) in [(people.annSocket, people.bob, people.bobID), (people.bobSocket, people.ann, people.annID)] {
            let answer = try await socket.call("get_identity_keys", ["account_ids": [id]])
            #expect((answer["keys"] as? [[String: Any]])?.first?["identity_key"] as? String == Self.key(other), "\(answer)")
        }
        let rotated = TestAccount(people.bob.email)
        #expect(try await people.bobSocket.call("rotate_keys", rotated.rotateFields).ok)
        let note = try await people.annSocket.nextNotification(named: "keys_updated")
        #expect(note["account_id"] as? Int == people.bobID)
        let after = try await people.annSocket.call("get_identity_keys", ["account_ids": [people.bobID]])
        #expect((after["keys"] as? [[String: Any]])?.first?["identity_key"] as? String == Self.key(rotated), "\(after)")

        #expect(try await people.bobSocket.call("decline_request", ["conversation_id": conversation]).ok)
        let declined = try await people.annSocket.call("get_identity_keys", ["account_ids": [people.bobID]])
        #expect((declined["keys"] as? [Any])?.isEmpty == true, "a declined request tells ann nothing more: \(declined)")
        try await people.server.stop()
    }

    @Test("garbage, too many ids and no login are refused in words; the connection goes on")
    func hostileRequests() async throws {
        let people = try await TwoPeople.start()
        let bad: [[String: Any]] = [
            ["account_ids": "1"], ["account_ids": [-1]], ["account_ids": [0]], ["account_ids": ["1"]],
            ["account_ids": Array(1...501)], ["account_ids": [Int64(1) << 60]], ["account_ids": [1.5]],
        ]
        for fields in bad {
            let answer = try await people.annSocket.call("get_identity_keys", fields)
            #expect(answer.errorCode == "invalid_field", "\(fields.keys): \(answer)")
        }
        #expect(try await people.annSocket.call("get_identity_keys").errorCode == "missing_field")
        #expect((try await people.annSocket.call("get_identity_keys", ["account_ids": Array(1...500)])["keys"] as? [Any]) != nil)
        let stranger = try people.server.connect()
        #expect(try await stranger.call("get_identity_keys", ["account_ids": [people.annID]]).errorCode == "unauthenticated")
        #expect(try await people.annSocket.call("whoami").ok)
        try await people.server.stop()
    }

    @Test("reading many contacts is paid for from the listing allowance: paced like a long list, other accounts unaffected")
    func paidForLikeAList() async throws {
        let people = try await TwoPeople.start { $0.accountListedItemsPerSecond = 100 }   // the limit under test: bursts of 1,000
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        var others: [Int64] = []
        for index in 0..<600 { others.append(try await Sample.activeAccount(store, "member\(index)@example.org")) }
        for part in stride(from: 0, to: others.count, by: 200) {
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: Array(others[part..<part + 200]), now: people.server.clock.now()).conversation
            for member in others[part..<part + 200] { try await store.setMemberStatus(conversationID: group.id, accountID: member, status: .active, now: people.server.clock.now()) }
        }
        // 600 contacts and 1 id asked: 601 items of 1,000; the second check starts (399 left) and runs into debt.
        for _ in 0..<2 {
            let answer = try await people.annSocket.call("get_identity_keys", ["account_ids": [Int(others[0])]])
            #expect((answer["keys"] as? [Any])?.count == 1, "\(answer)")
        }
        let paced = try await people.annSocket.call("get_identity_keys", ["account_ids": [Int(others[0])]])
        #expect(paced.errorCode == "rate_limited", "\(paced)")
        #expect(try await people.annSocket.call("list_conversations").errorCode == "rate_limited", "one allowance for both")
        #expect(try await people.bobSocket.call("get_identity_keys", ["account_ids": [people.annID]]).ok)
        people.server.clock.advance(milliseconds: 9_000)
        #expect(try await people.annSocket.call("get_identity_keys", ["account_ids": [Int(others[0])]]).ok)
        try await people.server.stop()
    }
}
