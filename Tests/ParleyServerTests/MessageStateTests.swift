import Foundation
import Testing

@Suite("get_message_state and get_key_bundle by account id")
struct MessageStateTests {
    @Test func catchUpOnReactionsAndPinsOnlyForVisibleMessages() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "m1", "envelopes": people.envelopesFromAnn("hi"),
        ])
        let id = try #require(sent["message_id"] as? Int)
        _ = try await people.bobSocket.call("react_message", ["message_id": id, "emoji": "👍"])
        _ = try await people.bobSocket.call("pin_message", ["message_id": id, "pinned": true])

        let state = try await people.annSocket.call("get_message_state", ["message_ids": [id, 999_999]])
        let messages = try #require(state["messages"] as? [[String: Any]])
        #expect(messages.count == 1, "an id the caller cannot see is left out")
        #expect(messages[0]["pinned"] as? Bool == true)
        #expect(messages[0]["deleted"] as? Bool == false)
        let reactions = try #require(messages[0]["reactions"] as? [[String: Any]])
        #expect(reactions.count == 1)
        #expect(reactions[0]["emoji"] as? String == "👍")
        #expect(reactions[0]["account_id"] as? Int == people.bobID)

        // Someone outside the conversation sees nothing.
        let carol = TestAccount("carol@example.org")
        let carolSocket = try people.server.connect()
        try await people.server.createAccount(carol, on: carolSocket)
        _ = try await people.server.login(carol, on: carolSocket)
        let outsider = try await carolSocket.call("get_message_state", ["message_ids": [id]])
        #expect((outsider["messages"] as? [Any])?.isEmpty == true)

        // Hostile input: a clear error, the connection survives.
        for bad: Any in [["x"], [-1], Array(repeating: 1, count: 101), "1"] {
            let answer = try await people.annSocket.call("get_message_state", ["message_ids": bad])
            #expect(answer["ok"] as? Bool == false)
            #expect(((answer["error"] as? [String: Any])?["code"] as? String) == "invalid_field")
        }
        #expect(try await people.annSocket.call("ping")["ok"] as? Bool == true)

        // Bundles by account id, for people whose e-mail the caller does not know.
        let bundle = try await carolSocket.call("get_key_bundle", ["account_id": people.bobID])
        #expect(bundle["account_id"] as? Int == people.bobID)
        #expect((bundle["devices"] as? [Any])?.count == 1)
        let missing = try await carolSocket.call("get_key_bundle", ["account_id": 424_242])
        #expect(((missing["error"] as? [String: Any])?["code"] as? String) == "not_found")
        let zero = try await carolSocket.call("get_key_bundle", ["account_id": 0])
        #expect(((zero["error"] as? [String: Any])?["code"] as? String) == "invalid_field")
        try await people.server.stop()
    }
}
