import Crypto
import Foundation
import Testing

@Suite("Groups and message actions", .serialized)
struct GroupTests {
    struct Three {
        let people: TwoPeople
        let carol: TestAccount
        let carolSocket: LineSocket
        let carolID: Int
        let group: Int

        static func start() async throws -> Three {
            let people = try await TwoPeople.start()
            let carol = TestAccount("carol@example.org")
            let carolSocket = try people.server.connect()
            try await people.server.createAccount(carol, on: carolSocket)
            let carolID = try #require(try await people.server.login(carol, on: carolSocket)["account_id"] as? Int)
            let created = try await people.annSocket.call("create_conversation", [
                "kind": "group", "members": [people.bob.email, carol.email],
            ])
            let group = try #require(created["conversation_id"] as? Int)
            for socket in [people.bobSocket, carolSocket] {
                let invitations = try #require(try await socket.call("list_invitations")["invitations"] as? [[String: Any]])
                #expect(invitations.first?["conversation_id"] as? Int == group)
                #expect(try await socket.call("accept_invitation", ["conversation_id": group]).ok)
            }
            return Three(people: people, carol: carol, carolSocket: carolSocket, carolID: carolID, group: group)
        }

        func envelopes(_ text: String, to members: [Int]) -> [[String: Any]] {
            members.map { ["account_id": $0, "device_id": 1, "ciphertext": Data("\(text)>\($0)".utf8).base64EncodedString()] }
        }

        func annSends(_ text: String, to members: [Int]) async throws -> [String: Any] {
            try await people.annSocket.call("send_message", [
                "conversation_id": group, "client_message_id": text, "envelopes": envelopes(text, to: members),
            ])
        }
    }

    @Test("a removed member is told, gets no envelopes afterwards, and can no longer act in the group")
    func removal() async throws {
        let three = try await Three.start()
        let people = three.people
        #expect(try await three.annSends("before", to: [people.bobID, three.carolID]).ok)
        #expect(try await people.bobSocket.call("remove_member", ["conversation_id": three.group, "account_id": three.carolID]).errorCode == "forbidden")
        #expect(try await people.annSocket.call("remove_member", ["conversation_id": three.group, "account_id": three.carolID]).ok)
        let removal = try await three.carolSocket.nextNotification(named: "member_removed")
        #expect(removal["account_id"] as? Int == three.carolID)
        #expect(removal["reason"] as? String == "removed")

        // Carol is no longer a device to encrypt for: including her is stale, leaving her out works.
        #expect(try await three.annSends("after-with-carol", to: [people.bobID, three.carolID]).errorCode == "stale_devices")
        #expect(try await three.annSends("after", to: [people.bobID]).ok)
        let carolMessages = try #require(try await three.carolSocket.call("get_messages", [:])["messages"] as? [[String: Any]])
        #expect(carolMessages.count == 1)
        let carolSend = try await three.carolSocket.call("send_message", [
            "conversation_id": three.group, "client_message_id": "c", "envelopes": [[String: Any]](),
        ])
        #expect(carolSend.errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("the server keeps no group title: rename_conversation is gone, and neither lists nor invitations carry one")
    func noServerTitle() async throws {
        let three = try await Three.start()
        let title = Data("new-enc-title".utf8).base64EncodedString()
        #expect(try await three.people.annSocket.call("rename_conversation", ["conversation_id": three.group, "title": title]).errorCode == "unknown_method")
        let list = try #require(try await three.people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        #expect(list.allSatisfy { $0["title"] == nil })
        try await three.people.server.stop()
    }

    @Test("create_conversation answers the account of each address, in order, saying nothing of who blocked the creator")
    func createNamesTheAccounts() async throws {
        let people = try await TwoPeople.start()
        let carol = TestAccount("carol@example.org")
        let carolSocket = try people.server.connect()
        try await people.server.createAccount(carol, on: carolSocket)
        let carolID = try #require(try await people.server.login(carol, on: carolSocket)["account_id"] as? Int)
        #expect(try await people.bobSocket.call("block_account", ["email": people.ann.email]).ok)
        let created = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [carol.email, "BOB@example.org"]])
        #expect(created["member_ids"] as? [Int] == [carolID, people.bobID], "\(created)")
        // Bob blocked Ann: he is not invited, and she is not told.
        let invitations = try #require(try await people.bobSocket.call("list_invitations")["invitations"] as? [[String: Any]])
        #expect(invitations.isEmpty)
        try await people.server.stop()
    }

    @Test("a member removed, or gone, in the middle of an upload cannot finish it, and no member can download it")
    func anUploadEndsWithMembership() async throws {
        let three = try await Three.start()
        let people = three.people
        let payload = Data((0..<3_000).map { UInt8($0 % 251) })
        let digest = Data(SHA256.hash(data: payload)).base64EncodedString()
        let started = try await three.carolSocket.call("upload_start", ["conversation_id": three.group, "size": payload.count, "sha256": digest])
        let fileID = try #require(started["file_id"] as? Int)
        #expect(try await people.annSocket.call("remove_member", ["conversation_id": three.group, "account_id": three.carolID]).ok)
        let late = try await three.carolSocket.call("upload_file", ["file_id": fileID, "offset": 0, "chunk": payload.base64EncodedString()])
        #expect(late.errorCode == "not_found" && late.errorMessage == "no such upload", "\(late)")
        #expect(try await people.bobSocket.call("download_file", ["file_id": fileID]).errorCode == "not_found")
        // The same for one who left on their own, and the rest of the group still uploads.
        let bobs = try await people.bobSocket.call("upload_start", ["conversation_id": three.group, "size": payload.count, "sha256": digest])
        let bobFile = try #require(bobs["file_id"] as? Int)
        let annFile = try #require(try await people.annSocket.call("upload_start", ["conversation_id": three.group, "size": payload.count, "sha256": digest])["file_id"] as? Int)
        #expect(try await people.bobSocket.call("leave_group", ["conversation_id": three.group]).ok)
        #expect(try await people.bobSocket.call("upload_file", ["file_id": bobFile, "offset": 0, "chunk": payload.base64EncodedString()]).errorCode == "not_found")
        #expect(try await people.annSocket.call("upload_file", ["file_id": annFile, "offset": 0, "chunk": payload.base64EncodedString()])["complete"] as? Bool == true)
        try await people.server.stop()
    }

    @Test("leaving, declining and accepting invitations")
    func invitations() async throws {
        let three = try await Three.start()
        let people = three.people
        #expect(try await three.carolSocket.call("leave_group", ["conversation_id": three.group]).ok)
        #expect(try await three.carolSocket.call("leave_group", ["conversation_id": three.group]).errorCode == "not_found")
        #expect(try await people.bobSocket.call("add_member", ["conversation_id": three.group, "email": three.carol.email]).ok)
        #expect(try await people.bobSocket.call("add_member", ["conversation_id": three.group, "email": three.carol.email])["status"] as? String == "invited", "inviting again answers as the first time")
        #expect(try await people.bobSocket.call("add_member", ["conversation_id": three.group, "email": people.ann.email]).errorCode == "conflict")
        #expect(try await three.carolSocket.call("decline_invitation", ["conversation_id": three.group]).ok)
        #expect(try await three.carolSocket.call("accept_invitation", ["conversation_id": three.group]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("reactions toggle, pins list, read marks lower unread counts")
    func reactionsPinsReads() async throws {
        let three = try await Three.start()
        let people = three.people
        let sent = try await three.annSends("hi", to: [people.bobID, three.carolID])
        let messageID = try #require(sent["message_id"] as? Int)
        #expect(try await people.bobSocket.call("react_message", ["message_id": messageID, "emoji": "👍"])["present"] as? Bool == true)
        #expect(try await people.bobSocket.call("react_message", ["message_id": messageID, "emoji": "👍"])["present"] as? Bool == false)
        #expect(try await people.bobSocket.call("react_message", ["message_id": messageID, "emoji": "🦄"]).errorCode == "invalid_field")

        #expect(try await people.bobSocket.call("pin_message", ["message_id": messageID, "pinned": true]).ok)
        let pinned = try #require(try await three.carolSocket.call("get_pinned_messages", ["conversation_id": three.group])["messages"] as? [[String: Any]])
        #expect(pinned.map { $0["message_id"] as? Int } == [messageID])
        #expect(try await people.bobSocket.call("pin_message", ["message_id": messageID, "pinned": false]).ok)
        #expect((try await three.carolSocket.call("get_pinned_messages", ["conversation_id": three.group])["messages"] as? [Any])?.isEmpty == true)

        func unread() async throws -> Int? {
            let list = try await people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]]
            return list?.first { $0["conversation_id"] as? Int == three.group }?["unread"] as? Int
        }
        #expect(try await unread() == 1)
        #expect(try await people.bobSocket.call("mark_read", ["message_id": messageID]).ok)
        #expect(try await unread() == 0)
        _ = try await three.annSends("again", to: [people.bobID, three.carolID])
        #expect(try await unread() == 1)
        #expect(try await people.bobSocket.call("mark_conversation_read", ["conversation_id": three.group]).ok)
        #expect(try await unread() == 0)
        try await people.server.stop()
    }

    @Test("only the sender deletes; deletion drops the ciphertexts and is listed by get_deleted_since")
    func deletion() async throws {
        let three = try await Three.start()
        let people = three.people
        let messageID = try #require(try await three.annSends("oops", to: [people.bobID, three.carolID])["message_id"] as? Int)
        #expect(try await people.bobSocket.call("delete_message", ["message_id": messageID]).errorCode == "forbidden")
        #expect(try await people.annSocket.call("delete_message", ["message_id": messageID]).ok)
        #expect((try await people.bobSocket.call("get_messages", [:])["messages"] as? [Any])?.isEmpty == true)
        let deleted = try #require(try await people.bobSocket.call("get_deleted_since", ["since": 0])["messages"] as? [[String: Any]])
        #expect(deleted.map { $0["message_id"] as? Int } == [messageID])
        #expect(try await people.bobSocket.call("react_message", ["message_id": messageID, "emoji": "👍"]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("forwarding needs access to the source and the usual envelopes for the target")
    func forward() async throws {
        let three = try await Three.start()
        let people = three.people
        let messageID = try #require(try await three.annSends("fwd", to: [people.bobID, three.carolID])["message_id"] as? Int)
        let direct = try await people.directConversation()
        let forwarded = try await people.annSocket.call("forward_message", [
            "message_id": messageID, "conversation_id": direct, "client_message_id": "f1", "envelopes": people.envelopesFromAnn("fwd"),
        ])
        #expect(forwarded.ok, "\(forwarded)")
        let strangerSocket = try people.server.connect()
        let eve = TestAccount("eve@example.org")
        try await people.server.createAccount(eve, on: strangerSocket)
        _ = try await people.server.login(eve, on: strangerSocket)
        let stolen = try await strangerSocket.call("forward_message", [
            "message_id": messageID, "conversation_id": direct, "client_message_id": "f2", "envelopes": [[String: Any]](),
        ])
        #expect(stolen.errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("one account cannot bury a person under invitations: 10 unanswered to its groups, then quota_exceeded until one is answered")
    func unansweredInvitationsPerCreator() async throws {
        let three = try await Three.start()  // bob and carol are members of ann's first group
        let people = three.people
        let bobPending = { try #require(try await people.bobSocket.call("list_invitations")["invitations"] as? [[String: Any]]).count }
        var groups: [Int] = []
        for _ in 0..<10 {
            let created = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
            groups.append(try #require(created["conversation_id"] as? Int))
        }
        #expect(try await bobPending() == 10)

        // An eleventh group with bob is refused whole, naming him; one without him is not.
        let refused = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [three.carol.email, people.bob.email]])
        #expect(refused.errorCode == "quota_exceeded")
        let message = try #require((refused["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains(people.bob.email) && message.contains("10 invitations"))
        let carolOnly = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [three.carol.email]])
        let carolGroup = try #require(carolOnly["conversation_id"] as? Int)
        #expect(try await three.carolSocket.call("accept_invitation", ["conversation_id": carolGroup]).ok)
        // Nor can carol add him to a group of ann's: the count is per creator, whoever invites.
        let byCarol = try await three.carolSocket.call("add_member", ["conversation_id": carolGroup, "email": people.bob.email])
        #expect(byCarol.errorCode == "quota_exceeded")
        #expect(try await bobPending() == 10, "nothing was stored")

        // carol's own groups are another creator's: bob can still be invited to them.
        let carolsOwn = try await three.carolSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
        #expect(carolsOwn["conversation_id"] is Int)
        #expect(try await bobPending() == 11)

        // Answering one of ann's frees a place.
        #expect(try await people.bobSocket.call("decline_invitation", ["conversation_id": groups[0]]).ok)
        #expect(try await people.annSocket.call("add_member", ["conversation_id": carolGroup, "email": people.bob.email])["status"] as? String == "invited")
        #expect(try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]]).errorCode == "quota_exceeded")
        try await people.server.stop()
    }

    @Test("an invitation taken back and sent again within a day arrives quietly: listed, not announced, whether the group was deleted or the invitee removed",
          arguments: StoreBackend.allCases)
    func withdrawnInvitationSentAgain(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let ann = people.annSocket, bob = people.bobSocket
        let carol = TestAccount("carol@example.org")
        let carolSocket = try people.server.connect()
        try await people.server.createAccount(carol, on: carolSocket)
        _ = try await people.server.login(carol, on: carolSocket)
        /// Bob's notifications before carol's next group invitation (the sentinel: another creator's), by event name,
        /// but for the presence list his login got.
        func bobsEventsUntilSentinel() async throws -> [String] {
            let sentinel = try #require(try await carolSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])["conversation_id"] as? Int)
            var events: [String] = []
            while true {
                let notification = try await bob.nextNotification()
                let event = try #require(notification["event"] as? String)
                if event == "group_invitation", notification["conversation_id"] as? Int == sentinel { return events }
                if event != "online_users" { events.append(event) }  // the presence list every login gets
            }
        }
        func group() async throws -> Int {
            try #require(try await ann.call("create_conversation", ["kind": "group", "members": [people.bob.email]])["conversation_id"] as? Int)
        }
        /// Bob's invitations to ann's groups (carol's sentinels are listed too).
        func invitations() async throws -> [Int] {
            try #require(try await bob.call("list_invitations")["invitations"] as? [[String: Any]])
                .filter { $0["creator_id"] as? Int == people.annID }.compactMap { $0["conversation_id"] as? Int }
        }

        var latest = try await group()
        let first = try await bobsEventsUntilSentinel()
        #expect(first == ["group_invitation"], "\(first)")
        // Ten rounds of deleting the group and making another with bob: he hears none of them.
        for _ in 0..<10 {
            #expect(try await ann.call("delete_conversation", ["conversation_id": latest]).ok)
            latest = try await group()
        }
        #expect(try await bobsEventsUntilSentinel() == [])
        #expect(try await invitations() == [latest], "the invitation is there, quietly")

        // Ten rounds of removing bob before he answered and inviting him again: none heard either, not even the removal.
        let members = try #require(try await ann.call("create_conversation", ["kind": "group", "members": []])["conversation_id"] as? Int)
        for _ in 0..<10 {
            #expect(try await ann.call("add_member", ["conversation_id": members, "email": people.bob.email])["status"] as? String == "invited")
            #expect(try await ann.call("remove_member", ["conversation_id": members, "account_id": people.bobID]).ok)
        }
        #expect(try await bobsEventsUntilSentinel() == [])
        #expect(try await ann.call("add_member", ["conversation_id": members, "email": people.bob.email])["status"] as? String == "invited")
        #expect(Set(try await invitations()) == [latest, members])
        // He can still answer the quiet one; accepting makes him a member as ever.
        #expect(try await bob.call("accept_invitation", ["conversation_id": members]).ok)

        // A day after the last withdrawal a new invitation is announced again.
        #expect(try await ann.call("delete_conversation", ["conversation_id": latest]).ok)
        people.server.clock.advance(milliseconds: 86_400_001)
        let announced = try await group()
        #expect(try await bobsEventsUntilSentinel().filter { $0 == "group_invitation" } == ["group_invitation"])
        #expect(try await invitations().contains(announced))
        try await people.server.stop()
    }

    @Test("an account is in at most 1,000 groups: the next it creates or accepts is refused in its words until it leaves one", arguments: StoreBackend.allCases)
    func groupsPerAccount(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        // 999 groups made through the store (the wire would take 20 s at the default request rate), the 1,000th
        // through the wire.
        let store = people.server.opened.store
        var groups: [Int64] = []
        for index in 0..<999 {
            groups.append(try await store.createConversation(kind: .group, creatorID: Int64(people.annID), memberIDs: [], now: 1_000 + Int64(index)).conversation.id)
        }
        let last = try await people.annSocket.call("create_conversation", ["kind": "group", "members": []])
        #expect(last["conversation_id"] is Int, "\(last)")
        let refused = try await people.annSocket.call("create_conversation", ["kind": "group", "members": [people.bob.email]])
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage?.contains("you are in 1000 groups") == true && refused.errorMessage?.contains("parley group leave") == true,
                "\(refused.errorMessage ?? "")")
        #expect((try await people.bobSocket.call("list_invitations")["invitations"] as? [[String: Any]])?.isEmpty == true, "nothing was stored")
        // A direct conversation is not a group.
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]]).ok)

        // Bob's invitation waits; accepting it would be a 1,001st group.
        let bobs = try #require(try await people.bobSocket.call("create_conversation", ["kind": "group", "members": [people.ann.email]])["conversation_id"] as? Int)
        #expect(try await people.annSocket.call("accept_invitation", ["conversation_id": bobs]).errorCode == "quota_exceeded")
        #expect(try await people.annSocket.call("leave_group", ["conversation_id": groups[0]]).ok)
        #expect(try await people.annSocket.call("accept_invitation", ["conversation_id": bobs]).ok)
        let listed = try #require(try await people.annSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        #expect(listed.filter { $0["kind"] as? String == "group" }.count == 1_000)
        try await people.server.stop()
    }
}

@Suite("Metadata search", .serialized)
struct SearchTests {
    @Test("search_messages filters by sender, kind and time, only in the caller's conversations")
    func search() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        for (index, kind) in ["text", "image", "text"].enumerated() {
            #expect(try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "s\(index)", "kind": kind,
                "envelopes": people.envelopesFromAnn("\(index)"),
            ]).ok)
        }
        let images = try #require(try await people.bobSocket.call("search_messages", ["kind": "image"])["messages"] as? [[String: Any]])
        #expect(images.count == 1)
        let fromAnn = try #require(try await people.bobSocket.call("search_messages", ["sender_id": people.annID])["messages"] as? [[String: Any]])
        #expect(fromAnn.count == 3)
        let stamps = fromAnn.compactMap { $0["timestamp"] as? Int }
        #expect(stamps == stamps.sorted(by: >))
        let window = try #require(try await people.bobSocket.call("search_messages", ["from_ts": stamps[1], "to_ts": stamps[1]])["messages"] as? [[String: Any]])
        #expect(window.count == 1)
        #expect(window.first?["ciphertext"] == nil)

        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)
        #expect((try await eveSocket.call("search_messages", ["sender_id": people.annID])["messages"] as? [Any])?.isEmpty == true)
        try await people.server.stop()
    }
}
