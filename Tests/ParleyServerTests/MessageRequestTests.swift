import Foundation
import Testing

/// Message requests and the block list (docs/API.md §5.1), over real sockets on a server with default limits.
@Suite("Message requests and blocks", .serialized)
struct MessageRequestTests {
    /// The names of the notifications before `event`, and that one.
    func notifications(upTo event: String, on socket: LineSocket) async throws -> [String] {
        var names: [String] = []
        for _ in 0..<30 {
            let name = try await socket.nextNotification()["event"] as? String ?? "?"
            names.append(name)
            if name == event { return names }
        }
        throw LineSocket.Failure(description: "no \(event) among \(names)")
    }

    func messages(_ socket: LineSocket) async throws -> [[String: Any]] {
        try #require(try await socket.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])
    }

    func send(_ text: String, from socket: LineSocket, in conversation: Int, to devices: [Int]) async throws -> [String: Any] {
        try await socket.call("send_message", [
            "conversation_id": conversation, "client_message_id": UUID().uuidString,
            "envelopes": devices.map { ["account_id": $0, "device_id": 1, "ciphertext": Data(text.utf8).base64EncodedString()] },
        ])
    }

    @Test("a stranger's conversation is a request: it arrives, but shows them nothing of the other person until accepted",
          arguments: StoreBackend.allCases)
    func requestUntilAccepted(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let avatar = Data("bob's picture (ciphertext)".utf8).base64EncodedString()
        #expect(try await people.bobSocket.call("update_avatar", ["avatar": avatar]).ok)
        #expect(try await people.bobSocket.call("update_profile", ["fields": ["phone": ["value": "+1 555 0100", "visibility": "contacts"]]]).ok)
        #expect(try await people.annSocket.call("update_profile", ["fields": ["phone": ["value": "+1 555 0199", "visibility": "contacts"]]]).ok)

        let conversation = try await people.directConversation(accepted: false)
        let note = try await people.bobSocket.nextNotification(named: "message_request")
        #expect(note["conversation_id"] as? Int == conversation && note["creator_id"] as? Int == people.annID)
        let requests = try #require(try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])
        #expect(requests.count == 1)
        #expect(requests.first?["conversation_id"] as? Int == conversation && requests.first?["account_id"] as? Int == people.annID)
        #expect(requests.first?["email"] as? String == people.ann.email)
        let listed = try #require(try await people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        #expect(listed.map { $0["request"] as? String } == ["pending"])
        #expect((try await people.annSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)

        // Ann, the stranger, sees nothing of Bob beyond his name; Bob sees who is asking.
        #expect((try await people.annSocket.call("get_profile", ["account_id": people.bobID])["fields"] as? [String: String]) == [:])
        #expect(try await people.annSocket.call("get_avatar", ["account_id": people.bobID]).errorCode == "not_found")
        #expect((try await people.bobSocket.call("get_profile", ["account_id": people.annID])["fields"] as? [String: String]) == ["phone": "+1 555 0199"])
        let annElsewhere = try people.server.connect()
        _ = try await people.server.login(people.ann, on: annElsewhere)
        #expect(try await annElsewhere.nextNotification(named: "online_users")["account_ids"] as? [Int] == [])

        // Her message reaches him; his reading it sends her no read mark.
        #expect(try await send("hello", from: people.annSocket, in: conversation, to: [people.bobID]).ok)
        #expect(try await messages(people.bobSocket).count == 1)
        #expect(try await people.bobSocket.call("mark_conversation_read", ["conversation_id": conversation]).ok)
        #expect(try await people.bobSocket.call("accept_request", ["conversation_id": conversation]).ok)
        let before = try await notifications(upTo: "request_accepted", on: people.annSocket)
        #expect(!before.contains("messages_read"), "\(before)")

        // Accepted: contacts.
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)
        #expect((try await people.annSocket.call("get_profile", ["account_id": people.bobID])["fields"] as? [String: String]) == ["phone": "+1 555 0100"])
        #expect(try await people.annSocket.call("get_avatar", ["account_id": people.bobID])["avatar"] as? String == avatar)
        #expect(try await people.bobSocket.call("accept_request", ["conversation_id": conversation]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("replying in the conversation answers its request; a message for one device of the starter does not",
          arguments: StoreBackend.allCases)
    func replyingAnswers(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation(accepted: false)
        #expect(try await send("hello", from: people.annSocket, in: conversation, to: [people.bobID]).ok)
        // A retry request (directed, docs/API.md §6) is not a reply: the request stays.
        let directed = try await people.bobSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": UUID().uuidString, "to_account_id": people.annID, "to_device_id": 1,
            "envelopes": [["account_id": people.annID, "device_id": 1, "ciphertext": Data("retry".utf8).base64EncodedString()]],
        ])
        #expect(directed.ok, "\(directed)")
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.count == 1)
        // His answer in the conversation is his choice to talk: the request is gone, the conversation a plain one.
        #expect(try await send("hi ann", from: people.bobSocket, in: conversation, to: [people.annID]).ok)
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)
        let listed = try #require(try await people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        #expect(listed.count == 1 && listed.first?["request"] == nil, "\(listed)")
        #expect(try await send("again", from: people.annSocket, in: conversation, to: [people.bobID]).ok)
        #expect(try await messages(people.bobSocket).count == 2)
        try await people.server.stop()
    }

    @Test("declining hides the request and withholds what the stranger sends next, without telling them")
    func decline() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation(accepted: false)
        #expect(try await send("first", from: people.annSocket, in: conversation, to: [people.bobID]).ok)
        #expect(try await people.bobSocket.call("decline_request", ["conversation_id": conversation]).ok)
        #expect(try await people.bobSocket.call("decline_request", ["conversation_id": conversation]).errorCode == "not_found")
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)
        #expect((try await people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]])?.isEmpty == true)

        // Ann's next message is taken as usual; it never reaches Bob. Asking again changes nothing.
        let sent = try await send("second", from: people.annSocket, in: conversation, to: [people.bobID])
        #expect(sent.ok && sent["message_id"] is Int)
        #expect(try await messages(people.bobSocket).count == 1)
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])["created"] as? Bool == false)
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)

        // Bob writing to her himself opens it again.
        #expect(try await people.bobSocket.call("create_conversation", ["kind": "direct", "members": [people.ann.email]])["conversation_id"] as? Int == conversation)
        _ = try await people.annSocket.nextNotification(named: "request_accepted")
        #expect(try await send("third", from: people.annSocket, in: conversation, to: [people.bobID]).ok)
        #expect(try await messages(people.bobSocket).count == 2)
        try await people.server.stop()
    }

    @Test("a block withholds the blocked person's messages everywhere and declines their request at once", arguments: StoreBackend.allCases)
    func block(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        // A group the three share (all have joined).
        let (_, carolSocket, carolID, group) = try await people.groupWithCarol()

        #expect(try await people.bobSocket.call("block_account", ["email": people.ann.email]).ok)
        #expect(try await people.bobSocket.call("block_account", ["account_id": people.annID]).ok)
        let blocked = try #require(try await people.bobSocket.call("list_blocked")["blocked"] as? [[String: Any]])
        #expect(blocked.map { $0["account_id"] as? Int } == [people.annID])

        // In the group, Ann's message reaches Carol and not Bob; Ann is told the same as ever.
        #expect(try await send("to the group", from: people.annSocket, in: group, to: [people.bobID, carolID]).ok)
        #expect(try await messages(carolSocket).count == 1)
        #expect(try await messages(people.bobSocket).isEmpty)
        // Bob's still reach Ann: the block is his, about what reaches him.
        #expect(try await send("from bob", from: people.bobSocket, in: group, to: [people.annID, carolID]).ok)
        #expect(try await messages(people.annSocket).count == 1)

        // A direct conversation from Ann: created as ever, no request reaches Bob, nor her messages.
        let direct = try #require(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])["conversation_id"] as? Int)
        #expect(try await send("hi", from: people.annSocket, in: direct, to: [people.bobID]).ok)
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await messages(people.bobSocket).isEmpty)
        // Not contacts any more, though they share a group: no profile beyond the name, no presence.
        #expect(try await people.annSocket.call("get_avatar", ["account_id": people.bobID]).errorCode == "not_found")
        let annElsewhere = try people.server.connect()
        _ = try await people.server.login(people.ann, on: annElsewhere)
        #expect(try await annElsewhere.nextNotification(named: "online_users")["account_ids"] as? [Int] == [carolID])

        // Unblocked, her group messages reach him again.
        #expect(try await people.bobSocket.call("unblock_account", ["email": people.ann.email]).ok)
        #expect((try await people.bobSocket.call("list_blocked")["blocked"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await send("again", from: people.annSocket, in: group, to: [people.bobID, carolID]).ok)
        #expect(try await messages(people.bobSocket).count == 1)
        try await people.server.stop()
    }

    @Test("someone you blocked cannot invite you to a group, and cannot tell")
    func blockedInvitations() async throws {
        let people = try await TwoPeople.start()
        let carol = TestAccount("carol@example.org")
        let carolSocket = try people.server.connect()
        try await people.server.createAccount(carol, on: carolSocket)
        _ = try await people.server.login(carol, on: carolSocket)
        #expect(try await people.bobSocket.call("block_account", ["email": people.ann.email]).ok)

        let group = try #require(try await people.annSocket.call("create_conversation", [
            "kind": "group", "members": [people.bob.email, carol.email],
        ])["conversation_id"] as? Int)
        _ = try await carolSocket.nextNotification(named: "group_invitation")
        #expect((try await carolSocket.call("list_invitations")["invitations"] as? [[String: Any]])?.count == 1)
        #expect((try await people.bobSocket.call("list_invitations")["invitations"] as? [[String: Any]])?.isEmpty == true)
        // Inviting him by hand answers as any invitation does, and as inviting again does.
        let invited = try await people.annSocket.call("add_member", ["conversation_id": group, "email": people.bob.email])
        #expect(invited["status"] as? String == "invited")
        #expect(try await people.annSocket.call("add_member", ["conversation_id": group, "email": people.bob.email])["status"] as? String == "invited")
        #expect((try await people.bobSocket.call("list_invitations")["invitations"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await people.bobSocket.call("accept_invitation", ["conversation_id": group]).errorCode == "not_found")
        // Nothing reached Bob: the next notification he gets is one he caused.
        #expect(try await people.bobSocket.call("update_profile", ["display_name": "Bob B."]).ok)
        #expect(!people.bobSocket.notifications.contains { $0["event"] as? String == "group_invitation" })
        try await people.server.stop()
    }

    @Test("blocking and answering refuse what is not theirs, and say the same for accounts that do not exist")
    func hostileRequests() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation(accepted: false)
        // Only the one who owes the answer gives it.
        #expect(try await people.annSocket.call("accept_request", ["conversation_id": conversation]).errorCode == "not_found")
        #expect(try await people.annSocket.call("decline_request", ["conversation_id": conversation]).errorCode == "not_found")
        #expect(try await people.annSocket.call("accept_request", ["conversation_id": 987_654]).errorCode == "not_found")
        #expect(try await people.bobSocket.call("accept_request", ["conversation_id": "one"]).errorCode == "invalid_field")
        #expect(try await people.bobSocket.call("accept_request").errorCode == "missing_field")
        // A block list is no way to find accounts: a stranger's address and nobody's are answered alike.
        let ghost = try await people.bobSocket.call("block_account", ["email": "ghost@example.org"])
        let real = try await people.bobSocket.call("block_account", ["email": people.ann.email])
        #expect(ghost.ok && real.ok)
        #expect(Set(ghost.keys).subtracting(["request_id"]) == Set(real.keys).subtracting(["request_id"]))
        #expect(try await people.bobSocket.call("block_account", ["account_id": 987_654]).ok)
        #expect(try await people.bobSocket.call("block_account", ["email": people.bob.email]).errorCode == "invalid_field")
        #expect(try await people.bobSocket.call("block_account", ["email": "not an address"]).errorCode == "invalid_field")
        #expect(try await people.bobSocket.call("block_account").errorCode == "missing_field")
        #expect(try await people.bobSocket.call("unblock_account", ["account_id": 987_655]).ok)
        #expect(try await people.bobSocket.call("unblock_account", ["account_id": -3]).errorCode == "invalid_field")
        // What the block did stands: the list holds Ann alone, and her request was declined.
        #expect((try await people.bobSocket.call("list_blocked")["blocked"] as? [[String: Any]])?.map { $0["account_id"] as? Int } == [people.annID])
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await people.bobSocket.call("ping").ok)
        try await people.server.stop()
    }

    @Test("one account waits for at most 100 answers to its message requests: the next stranger is refused, whether or not they blocked it", arguments: StoreBackend.allCases)
    func unansweredRequestsPerAccount(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        // 100 strangers asked through the store (making 100 accounts through the wire would take minutes).
        let store = people.server.opened.store
        let ann = Int64(people.annID)
        var asked: [Int64] = []
        for index in 0..<100 {
            let stranger = try await Sample.activeAccount(store, "stranger\(index)@example.org")
            asked.append(try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [stranger], request: .pending, now: 1).conversation.id)
        }
        let refused = try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage?.contains("100 people have not answered your message requests yet") == true, "\(refused.errorMessage ?? "")")
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.isEmpty == true, "nothing reached bob")
        // Someone who blocked ann is refused the same way: the answer says nothing about blocks.
        let carol = try await Sample.activeAccount(store, "carol@example.org")
        _ = try await store.block(ann, by: carol, limit: 100, now: 2)
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": ["carol@example.org"]]).errorCode == "quota_exceeded")
        // Groups are not requests; an answer frees a place.
        #expect(try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]]).ok)
        try await store.setRequestState(conversationID: asked[0], accountID: try #require(try await store.activeMemberIDs(conversationID: asked[0]).first { $0 != ann }), nil)
        let now = try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])
        #expect(now["conversation_id"] is Int, "\(now)")
        #expect((try await people.bobSocket.call("list_requests")["requests"] as? [[String: Any]])?.count == 1)
        // Opening it again is not a new request.
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])["created"] as? Bool == false)
        try await people.server.stop()
    }

    @Test("a request deleted and started again within a day arrives quietly: listed, not announced; after a day it is announced again",
          arguments: StoreBackend.allCases)
    func deletedRequestStartedAgain(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let ann = people.annSocket, bob = people.bobSocket
        /// Bob's notifications up to and including the next `group_invitation` (ann's sentinel), by event name.
        func bobsEventsUntilSentinel() async throws -> [String] {
            #expect(try await ann.call("create_conversation", ["kind": "group", "members": [people.bob.email]]).ok)
            var events: [String] = []
            while true {
                let event = try #require(try await bob.nextNotification()["event"] as? String)
                events.append(event)
                if event == "group_invitation" { return events }
            }
        }
        func start() async throws -> Int {
            try #require(try await ann.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])["conversation_id"] as? Int)
        }

        let first = try await start()
        #expect(try await bobsEventsUntilSentinel().filter { $0 == "message_request" }.count == 1)
        // Ten rounds of deleting and starting again: bob hears of none of them.
        var latest = first
        for _ in 0..<10 {
            #expect(try await ann.call("delete_conversation", ["conversation_id": latest]).ok)
            latest = try await start()
        }
        #expect(try await bobsEventsUntilSentinel().filter { $0 == "message_request" }.isEmpty)
        let listed = try #require(try await bob.call("list_requests")["requests"] as? [[String: Any]])
        #expect(listed.map { $0["conversation_id"] as? Int } == [latest], "the request is there, quietly")

        // Bob deleting it does not let ann announce it again either.
        #expect(try await bob.call("delete_conversation", ["conversation_id": latest]).ok)
        latest = try await start()
        #expect(try await bobsEventsUntilSentinel().filter { $0 == "message_request" }.isEmpty)

        // A day after the last deletion a new request is announced again.
        #expect(try await ann.call("delete_conversation", ["conversation_id": latest]).ok)
        people.server.clock.advance(milliseconds: 86_400_001)
        _ = try await start()
        #expect(try await bobsEventsUntilSentinel().filter { $0 == "message_request" }.count == 1)
        try await people.server.stop()
    }
}
