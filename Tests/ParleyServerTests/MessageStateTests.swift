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

    /// A sender who was not connected when its message arrived and was read learns both later, and only of its
    /// own messages; a member who joined afterwards has not read what came before.
    @Test func theSenderLearnsWhoHasItsMessageAndWhoReadIt() async throws {
        let people = try await TwoPeople.start()
        let three = try await people.groupWithCarol()
        func envelope(_ account: Int, _ text: String) -> [String: Any] {
            ["account_id": account, "device_id": 1, "ciphertext": Data(text.utf8).base64EncodedString()]
        }
        func send(_ id: String, to accounts: [Int]) async throws -> Int {
            let sent = try await people.annSocket.call("send_message", [
                "conversation_id": three.group, "client_message_id": id, "envelopes": accounts.map { envelope($0, id) },
            ])
            return try #require(sent["message_id"] as? Int, "\(sent)")
        }
        func state(_ id: Int, asked socket: LineSocket) async throws -> [String: Any] {
            let answer = try await socket.call("get_message_state", ["message_ids": [id]])
            return try #require((answer["messages"] as? [[String: Any]])?.first, "\(answer)")
        }
        let first = try await send("m1", to: [people.bobID, three.id])
        var seen = try await state(first, asked: people.annSocket)
        #expect(seen["delivered_to"] as? [Int] == [] && seen["read_by"] as? [Int] == [], "nobody has it yet")

        #expect(try await people.bobSocket.call("confirm_delivery", ["message_ids": [first]])["confirmed"] as? Int == 1)
        seen = try await state(first, asked: people.annSocket)
        #expect(seen["delivered_to"] as? [Int] == [people.bobID] && seen["read_by"] as? [Int] == [])
        #expect(try await people.bobSocket.call("mark_read", ["message_id": first]).ok)
        #expect(try await three.socket.call("confirm_delivery", ["message_ids": [first]]).ok)
        seen = try await state(first, asked: people.annSocket)
        #expect(seen["delivered_to"] as? [Int] == [people.bobID, three.id].sorted())
        #expect(seen["read_by"] as? [Int] == [people.bobID])

        // Someone else's message: reactions and pins as before, nothing of who has it.
        let bobs = try await state(first, asked: people.bobSocket)
        #expect(bobs["delivered_to"] == nil && bobs["read_by"] == nil)

        // Dan joins later and reads everything: that says nothing about the message sent before he came.
        let dan = TestAccount("dan@example.org")
        let danSocket = try people.server.connect()
        try await people.server.createAccount(dan, on: danSocket)
        let danID = try #require(try await people.server.login(dan, on: danSocket)["account_id"] as? Int)
        people.server.clock.advance(milliseconds: 1_000)
        #expect(try await people.annSocket.call("add_member", ["conversation_id": three.group, "email": dan.email]).ok)
        #expect(try await danSocket.call("accept_invitation", ["conversation_id": three.group]).ok)
        let second = try await send("m2", to: [people.bobID, three.id, danID])
        #expect(try await danSocket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        #expect(try await state(first, asked: people.annSocket)["read_by"] as? [Int] == [people.bobID])
        #expect(try await state(second, asked: people.annSocket)["read_by"] as? [Int] == [danID])
        try await people.server.stop()
    }

    /// A block ends presence both ways: someone who blocked the sender (or whom the sender blocked) reads without
    /// the sender hearing of it, live or later.
    @Test func readingIsNotToldAcrossABlock() async throws {
        let people = try await TwoPeople.start()
        let three = try await people.groupWithCarol()
        #expect(try await three.socket.call("block_account", ["email": people.ann.email]).ok)
        let envelopes: [[String: Any]] = [people.bobID, three.id].map {
            ["account_id": $0, "device_id": 1, "ciphertext": Data("m1".utf8).base64EncodedString()]
        }
        let sent = try await people.annSocket.call("send_message", ["conversation_id": three.group, "client_message_id": "m1", "envelopes": envelopes])
        let id = try #require(sent["message_id"] as? Int, "\(sent)")
        // Carol reads first, then Bob: the first read mark Ann hears of is Bob's.
        #expect(try await three.socket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        #expect(try await people.bobSocket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        let heard = try await people.annSocket.nextNotification(named: "messages_read")
        #expect(heard["account_id"] as? Int == people.bobID, "\(heard)")
        let answer = try await people.annSocket.call("get_message_state", ["message_ids": [id]])
        let state = try #require((answer["messages"] as? [[String: Any]])?.first, "\(answer)")
        #expect(state["read_by"] as? [Int] == [people.bobID])
        // Bob still hears Carol's reading: the block is between Carol and Ann only.
        #expect(try await people.bobSocket.nextNotification(named: "messages_read")["account_id"] as? Int == three.id)

        // The other way: Ann blocks Bob. Her message still reaches him, but that he has it and read it is not told
        // her, live or later. (Her own reaction afterwards reaches her through the same outlet after anything his
        // confirmation and read mark sent her: what precedes it is all of that.)
        #expect(try await people.annSocket.call("block_account", ["account_id": people.bobID]).ok)
        let next = try await people.annSocket.call("send_message", [
            "conversation_id": three.group, "client_message_id": "m2",
            "envelopes": [["account_id": people.bobID, "device_id": 1, "ciphertext": Data("m2".utf8).base64EncodedString()],
                          ["account_id": three.id, "device_id": 1, "ciphertext": Data("m2".utf8).base64EncodedString()]],
        ])
        let second = try #require(next["message_id"] as? Int, "\(next)")
        #expect(try await people.bobSocket.call("confirm_delivery", ["message_ids": [second]])["confirmed"] as? Int == 1)
        #expect(try await people.bobSocket.call("mark_read", ["message_id": second]).ok)
        #expect(try await people.annSocket.call("react_message", ["message_id": second, "emoji": "👍"]).ok)
        var before: [String] = []
        while true {
            let name = try await people.annSocket.nextNotification()["event"] as? String ?? "?"
            if name == "message_reacted" { break }
            before.append(name)
            #expect(before.count < 30, "\(before)")
            if before.count >= 30 { break }
        }
        #expect(!before.contains("message_delivered") && !before.contains("messages_read"), "\(before)")
        let later = try await people.annSocket.call("get_message_state", ["message_ids": [second]])
        let secondState = try #require((later["messages"] as? [[String: Any]])?.first, "\(later)")
        #expect(secondState["delivered_to"] as? [Int] == [] && secondState["read_by"] as? [Int] == [], "\(secondState)")
        try await people.server.stop()
    }

    /// A message withheld from someone who blocked its sender never reached them: once the block is lifted, their read
    /// mark past it does not say they read it (before, `read_by` named them).
    @Test func aMessageWithheldDuringABlockIsNotReadAfterIt() async throws {
        let people = try await TwoPeople.start()
        let three = try await people.groupWithCarol()
        func send(_ id: String) async throws -> Int {
            let envelopes: [[String: Any]] = [people.bobID, three.id].map {
                ["account_id": $0, "device_id": 1, "ciphertext": Data(id.utf8).base64EncodedString()]
            }
            let sent = try await people.annSocket.call("send_message", ["conversation_id": three.group, "client_message_id": id, "envelopes": envelopes])
            return try #require(sent["message_id"] as? Int, "\(sent)")
        }
        func readBy(_ id: Int) async throws -> [Int]? {
            let answer = try await people.annSocket.call("get_message_state", ["message_ids": [id]])
            return (answer["messages"] as? [[String: Any]])?.first?["read_by"] as? [Int]
        }
        #expect(try await three.socket.call("block_account", ["email": people.ann.email]).ok)
        let withheld = try await send("w1")
        people.server.clock.advance(milliseconds: 1_000)
        #expect(try await three.socket.call("unblock_account", ["email": people.ann.email]).ok)
        let after = try await send("a1")
        let waiting = try await three.socket.call("get_messages", ["after_ts": 0])
        #expect((waiting["messages"] as? [[String: Any]])?.compactMap { $0["message_id"] as? Int } == [after], "\(waiting)")
        #expect(try await three.socket.call("confirm_delivery", ["message_ids": [after]])["confirmed"] as? Int == 1)
        #expect(try await three.socket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        #expect(try await people.bobSocket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        #expect(try await readBy(withheld) == [people.bobID], "carol never had it")
        #expect(try await readBy(after) == [people.bobID, three.id].sorted())
        try await people.server.stop()
    }

    /// Nothing someone sends reaches those who blocked them or whom they blocked, in a group too: a reaction
    /// neither, live or in `get_message_state`; the others see it.
    @Test func aReactionDoesNotCrossABlock() async throws {
        let people = try await TwoPeople.start()
        let three = try await people.groupWithCarol()
        #expect(try await three.socket.call("block_account", ["email": people.ann.email]).ok)
        let sent = try await people.bobSocket.call("send_message", [
            "conversation_id": three.group, "client_message_id": "b1",
            "envelopes": [people.annID, three.id].map { ["account_id": $0, "device_id": 1, "ciphertext": Data("b1".utf8).base64EncodedString()] },
        ])
        let id = try #require(sent["message_id"] as? Int, "\(sent)")
        #expect(try await three.socket.call("react_message", ["message_id": id, "emoji": "❤️"]).ok)
        #expect(try await people.annSocket.call("react_message", ["message_id": id, "emoji": "👍"]).ok)
        // Ann's own reaction reaches her after anything Carol's sent her; Carol's reaches Bob.
        let annHeard = try await people.annSocket.nextNotification(named: "message_reacted")
        #expect(annHeard["account_id"] as? Int == people.annID, "\(annHeard)")
        #expect(try await people.bobSocket.nextNotification(named: "message_reacted")["account_id"] as? Int == three.id)
        func reactors(_ socket: LineSocket) async throws -> [Int] {
            let answer = try await socket.call("get_message_state", ["message_ids": [id]])
            let state = try #require((answer["messages"] as? [[String: Any]])?.first, "\(answer)")
            return (state["reactions"] as? [[String: Any]] ?? []).compactMap { $0["account_id"] as? Int }.sorted()
        }
        #expect(try await reactors(people.annSocket) == [people.annID])
        #expect(try await reactors(three.socket) == [three.id])
        #expect(try await reactors(people.bobSocket) == [people.annID, three.id].sorted())
        try await people.server.stop()
    }
}
