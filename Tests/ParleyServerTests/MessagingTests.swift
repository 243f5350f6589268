import Foundation
import GRDB
import Testing

@Suite("Conversations and messages", .serialized)
struct MessagingTests {
    @Test("a sent message is acknowledged, pushed to the peer, fetched, and its delivery reported back", arguments: StoreBackend.allCases)
    func sendReceiveConfirm(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation()
        let created = try await people.bobSocket.nextNotification(named: "message_request")
        #expect(created["conversation_id"] as? Int == conversation)

        let sent = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "m-1", "envelopes": people.envelopesFromAnn("hello"),
        ])
        #expect(sent.ok, "\(sent)")
        let messageID = try #require(sent["message_id"] as? Int)

        let pushed = try await people.bobSocket.nextNotification(named: "new_message")
        #expect(pushed["message_id"] as? Int == messageID)

        let fetched = try await people.bobSocket.call("get_messages", ["after_ts": 0])
        let messages = try #require(fetched["messages"] as? [[String: Any]])
        #expect(messages.count == 1)
        #expect(messages[0]["ciphertext"] as? String == Data("to-bob:hello".utf8).base64EncodedString())
        #expect(messages[0]["sender_id"] as? Int == people.annID)

        // Ann's own fetch has nothing: the sending device keeps its message itself, and no copy for her is stored.
        let own = try await people.annSocket.call("get_messages", ["after_ts": 0])
        #expect((own["messages"] as? [[String: Any]])?.isEmpty == true)

        let confirmed = try await people.bobSocket.call("confirm_delivery", ["message_ids": [messageID]])
        #expect(confirmed["confirmed"] as? Int == 1)
        let delivered = try await people.annSocket.nextNotification(named: "message_delivered")
        #expect(delivered["message_id"] as? Int == messageID)
        // Confirming twice changes nothing and notifies no one.
        #expect(try await people.bobSocket.call("confirm_delivery", ["message_ids": [messageID]])["confirmed"] as? Int == 0)
        // Delivered (ann got the receipt above), it leaves bob's queue and its ciphertext leaves the database.
        #expect((try await people.bobSocket.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])?.isEmpty == true)
        try await people.server.stop(keepingFiles: true)
        defer { try? FileManager.default.removeItem(at: people.server.directory) }
        if backend == .sqlite {
            // Once the write-ahead log is checkpointed into the database file (SQLite does it every 1000 pages),
            // the page holds the envelope with its ciphertext dropped, overwritten (secure_delete): the bytes are
            // nowhere in the file.
            let path = people.server.directory.appendingPathComponent("parley.sqlite").path
            try await DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
            let stored = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(stored.range(of: Data("to-bob:hello".utf8)) == nil, "the delivered ciphertext is gone from the file")
        }
    }

    @Test("a directed message reaches one member device only; any other shape is refused and stores nothing")
    func directedMessage() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        func send(_ id: String, to account: Int, _ device: Int, envelopes: [[String: Any]]) async throws -> [String: Any] {
            try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": id, "kind": "retry",
                "to_account_id": account, "to_device_id": device, "envelopes": envelopes,
            ])
        }
        let one: [[String: Any]] = [["account_id": people.bobID, "device_id": 1, "ciphertext": Data("just-bob".utf8).base64EncodedString()]]
        #expect(try await send("d-1", to: people.bobID, 1, envelopes: one).ok)
        let fetched = try #require(try await people.bobSocket.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])
        #expect(fetched.map { $0["kind"] as? String } == ["retry"])
        #expect(fetched.first?["ciphertext"] as? String == Data("just-bob".utf8).base64EncodedString())
        // Not something bob reads: no unread count, no activity, not in metadata search.
        let listed = try #require(try await people.bobSocket.call("list_conversations", [:])["conversations"] as? [[String: Any]])
        #expect(listed.first?["unread"] as? Int == 0 && listed.first?["last_message_at"] == nil, "\(listed)")
        let found = try #require(try await people.bobSocket.call("search_messages", ["conversation_id": conversation])["messages"] as? [Any])
        #expect(found.isEmpty)

        // Two envelopes, or one for another device than named: invalid.
        let two = one + [["account_id": people.annID, "device_id": 2, "ciphertext": "AAAA"]]
        #expect(try await send("d-2", to: people.bobID, 1, envelopes: two).errorCode == "invalid_field")
        #expect(try await send("d-3", to: people.bobID, 2, envelopes: one).errorCode == "invalid_field")
        // A device that is not in the conversation: stale, named as extra.
        let ghost: [[String: Any]] = [["account_id": people.bobID, "device_id": 9, "ciphertext": "AAAA"]]
        let stale = try await send("d-4", to: people.bobID, 9, envelopes: ghost)
        #expect(stale.errorCode == "stale_devices", "\(stale)")
        // The sending device itself, or only half of the target: invalid.
        let me: [[String: Any]] = [["account_id": people.annID, "device_id": 1, "ciphertext": "AAAA"]]
        #expect(try await send("d-5", to: people.annID, 1, envelopes: me).errorCode == "invalid_field")
        let half = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "d-6", "to_account_id": people.bobID, "envelopes": one,
        ])
        #expect(half.errorCode == "invalid_field")
        // A stranger's conversation: not found.
        let carl = TestAccount("carl@example.org")
        let carlSocket = try people.server.connect()
        try await people.server.createAccount(carl, on: carlSocket)
        _ = try await people.server.login(carl, on: carlSocket)
        let intruder = try await carlSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "d-7", "to_account_id": people.bobID, "to_device_id": 1,
            "envelopes": one,
        ])
        #expect(intruder.errorCode == "not_found")
        let after = try #require(try await people.bobSocket.call("get_messages", ["after_ts": 0])["messages"] as? [[String: Any]])
        #expect(after.count == 1, "only the one good directed message was stored")
        try await people.server.stop()
    }

    @Test("a retried send with the same client id is stored once")
    func idempotentRetry() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let request: [String: Any] = [
            "conversation_id": conversation, "client_message_id": "retry-me", "envelopes": people.envelopesFromAnn("once"),
        ]
        let first = try await people.annSocket.call("send_message", request)
        let second = try await people.annSocket.call("send_message", request)
        #expect(first["message_id"] as? Int == second["message_id"] as? Int)
        #expect(first["timestamp"] as? Int == second["timestamp"] as? Int)
        let fetched = try await people.bobSocket.call("get_messages", [:])
        #expect((fetched["messages"] as? [Any])?.count == 1)
        try await people.server.stop()
    }

    @Test("envelopes that miss a device or add a stranger are refused with the devices to use")
    func staleDevices() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        // A self copy (device 0), the shape older clients sent, is an extra device now; bob's device is missing.
        let selfCopyOnly: [[String: Any]] = [["account_id": people.annID, "device_id": 0, "ciphertext": "AAAA"]]
        let missing = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "a", "envelopes": selfCopyOnly,
        ])
        #expect(missing.errorCode == "stale_devices")
        let details = try #require((missing["error"] as? [String: Any])?["details"] as? [String: Any])
        let missingDevices = try #require(details["missing_devices"] as? [[String: Any]])
        #expect(missingDevices.count == 1)
        #expect(missingDevices[0]["account_id"] as? Int == people.bobID)
        #expect(missingDevices[0]["device_id"] as? Int == 1)
        let extraDevices = try #require(details["extra_devices"] as? [[String: Any]])
        #expect(extraDevices.count == 1 && extraDevices[0]["device_id"] as? Int == 0)

        let stranger: [String: Any] = ["account_id": 999, "device_id": 1, "ciphertext": "AAAA"]
        let extra = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "b", "envelopes": people.envelopesFromAnn("x") + [stranger],
        ])
        #expect(extra.errorCode == "stale_devices")
        let bobSees = try await people.bobSocket.call("get_messages", [:])
        #expect((bobSees["messages"] as? [Any])?.isEmpty == true)
        try await people.server.stop()
    }

    @Test("a non-member can neither send to nor learn of a conversation")
    func nonMember() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let eve = TestAccount("eve@example.org")
        let eveSocket = try people.server.connect()
        try await people.server.createAccount(eve, on: eveSocket)
        _ = try await people.server.login(eve, on: eveSocket)
        #expect(try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "1", "envelopes": people.envelopesFromAnn("secret"),
        ]).ok)

        let send = try await eveSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "e", "envelopes": [[String: Any]](),
        ])
        #expect(send.errorCode == "not_found")
        let nonexistent = try await eveSocket.call("send_message", [
            "conversation_id": 987_654, "client_message_id": "e", "envelopes": [[String: Any]](),
        ])
        #expect(nonexistent.errorCode == send.errorCode)
        #expect(nonexistent.errorMessage == send.errorMessage)
        #expect((try await eveSocket.call("get_messages", [:])["messages"] as? [Any])?.isEmpty == true)
        #expect((try await eveSocket.call("list_conversations")["conversations"] as? [Any])?.isEmpty == true)
        #expect(try await eveSocket.call("find_conversation", ["email": people.ann.email]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("get_messages pages by timestamp with has_more, and timestamps strictly increase")
    func paging() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        for index in 0..<7 {
            #expect(try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "p\(index)", "envelopes": people.envelopesFromAnn("\(index)"),
            ]).ok)
        }
        var cursor = 0
        var seen: [Int] = []
        var pages = 0
        while true {
            let page = try await people.bobSocket.call("get_messages", ["after_ts": cursor, "limit": 3])
            let messages = try #require(page["messages"] as? [[String: Any]])
            seen += messages.compactMap { $0["timestamp"] as? Int }
            cursor = seen.last ?? cursor
            pages += 1
            if page["has_more"] as? Bool != true { break }
        }
        #expect(pages == 3)
        #expect(seen.count == 7)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
        try await people.server.stop()
    }

    @Test("list_conversations counts unread messages; find_conversation finds the direct one")
    func listAndFind() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.bob.email]])["created"] as? Bool == false)
        for index in 0..<2 {
            _ = try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "u\(index)", "envelopes": people.envelopesFromAnn("\(index)"),
            ])
        }
        let list = try #require(try await people.bobSocket.call("list_conversations")["conversations"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["unread"] as? Int == 2)
        #expect(list[0]["members"] as? [Int] == [people.annID, people.bobID].sorted())
        #expect(try await people.bobSocket.call("find_conversation", ["email": people.ann.email])["conversation_id"] as? Int == conversation)
        try await people.server.stop()
    }

    @Test("reply_to must name a message of the same conversation; bad envelopes are refused")
    func validation() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let reply = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "r", "reply_to": 4242, "envelopes": people.envelopesFromAnn("x"),
        ])
        #expect(reply.errorCode == "invalid_field")
        let garbage = try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "g", "envelopes": [["account_id": "x"]],
        ])
        #expect(garbage.errorCode == "invalid_field")
        let twice = people.envelopesFromAnn("x") + [people.envelopesFromAnn("y")[0]]
        #expect(try await people.annSocket.call("send_message", [
            "conversation_id": conversation, "client_message_id": "t", "envelopes": twice,
        ]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": [people.ann.email]]).errorCode == "invalid_field")
        #expect(try await people.annSocket.call("create_conversation", ["kind": "direct", "members": ["ghost@example.org"]]).errorCode == "not_found")
        #expect(try await people.annSocket.call("create_conversation", ["kind": "circle", "members": [people.bob.email]]).errorCode == "invalid_field")
        try await people.server.stop()
    }
}

@Suite("Client message ids", .serialized)
struct ClientMessageIDTests {
    @Test("a client id names one message: reused in another conversation it is a conflict, not the other message; empty is refused")
    func oneIDOneMessage() async throws {
        let people = try await TwoPeople.start()
        let direct = try await people.directConversation()
        let (_, _, carolID, group) = try await people.groupWithCarol()
        let envelopes = { (text: String) -> [[String: Any]] in
            [people.bobID, carolID].map { ["account_id": $0, "device_id": 1, "ciphertext": Data(text.utf8).base64EncodedString()] }
        }
        let first = try await people.annSocket.call("send_message", ["conversation_id": group, "client_message_id": "dup", "envelopes": envelopes("g")])
        let id = try #require(first["message_id"] as? Int)
        // The same id in the same conversation is a retry: the same message, stored once.
        #expect(try await people.annSocket.call("send_message", ["conversation_id": group, "client_message_id": "dup", "envelopes": envelopes("g")])["message_id"] as? Int == id)
        // In another conversation it is not that message (found by an outside probe: the answer named it, and nothing was sent).
        let elsewhere = try await people.annSocket.call("send_message", [
            "conversation_id": direct, "client_message_id": "dup", "envelopes": people.envelopesFromAnn("d"),
        ])
        #expect(elsewhere.errorCode == "conflict" && elsewhere.errorMessage?.contains("another message of yours") == true, "\(elsewhere)")
        let empty = try await people.annSocket.call("send_message", ["conversation_id": direct, "client_message_id": "", "envelopes": people.envelopesFromAnn("e")])
        #expect(empty.errorCode == "invalid_field", "\(empty)")
        try await people.server.stop()
    }
}

@Suite("Prekeys", .serialized)
struct PreKeyTests {
    @Test("each key bundle fetch consumes one one-time prekey; bundles still work when none are left")
    func consumption() async throws {
        let people = try await TwoPeople.start()
        var seen = Set<Int>()
        for _ in 0..<5 {
            let bundle = try await people.annSocket.call("get_key_bundle", ["email": people.bob.email])
            let device = try #require((bundle["devices"] as? [[String: Any]])?.first)
            #expect(bundle["identity_key"] as? String == people.bob.identity.publicKey.rawRepresentation.base64EncodedString())
            seen.insert(try #require(device["opk_id"] as? Int))
        }
        #expect(seen.count == 5)
        #expect(try await people.bobSocket.call("get_prekey_count")["count"] as? Int == 0)
        let exhausted = try await people.annSocket.call("get_key_bundle", ["email": people.bob.email])
        let device = try #require((exhausted["devices"] as? [[String: Any]])?.first)
        #expect(device["opk_id"] == nil)
        #expect(device["spk"] as? String != nil)
        #expect(device["pqspk"] as? String != nil)
        try await people.server.stop()
    }

    @Test("one account takes at most ten of another's one-time prekeys a day; bundles past that come without one", arguments: StoreBackend.allCases)
    func oneRequesterCannotDrainThem(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let fresh = (100..<130).map { ["id": $0, "key": Data(repeating: UInt8($0 % 256), count: 32).base64EncodedString()] }
        #expect(try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": fresh])["count"] as? Int == 35)
        var withKey = 0
        for _ in 0..<14 {
            let bundle = try await people.annSocket.call("get_key_bundle", ["account_id": people.bobID])
            let device = try #require((bundle["devices"] as? [[String: Any]])?.first)
            #expect(device["spk"] as? String != nil && device["pqspk"] as? String != nil)
            if device["opk_id"] != nil { withKey += 1 }
        }
        // Ten taken by ann (found by an outside probe: any account emptied another's in seconds), the rest kept.
        #expect(withKey == 10)
        #expect(try await people.bobSocket.call("get_prekey_count")["count"] as? Int == 25)
        // Someone else still gets one; a day later ann does again.
        let carol = TestAccount("carol@example.org")
        let carolSocket = try people.server.connect()
        try await people.server.createAccount(carol, on: carolSocket)
        _ = try await people.server.login(carol, on: carolSocket)
        let carols = try await carolSocket.call("get_key_bundle", ["email": people.bob.email])
        #expect((carols["devices"] as? [[String: Any]])?.first?["opk_id"] != nil)
        people.server.clock.advance(milliseconds: 24 * 60 * 60 * 1000 + 1)
        let later = try await people.annSocket.call("get_key_bundle", ["account_id": people.bobID])
        #expect((later["devices"] as? [[String: Any]])?.first?["opk_id"] != nil)
        try await people.server.stop()
    }

    @Test("ensure_prekeys adds keys, refuses duplicates and bad signatures")
    func replenish() async throws {
        let people = try await TwoPeople.start()
        let fresh = (100..<150).map { ["id": $0, "key": Data(repeating: UInt8($0 % 256), count: 32).base64EncodedString()] }
        let added = try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": fresh])
        #expect(added["count"] as? Int == 55)
        #expect(try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": [fresh[0]]]).errorCode == "conflict")
        var badSigned = people.bob.registerFields
        badSigned["spk_signature"] = Data(repeating: 0, count: 64).base64EncodedString()
        let refused = try await people.bobSocket.call("ensure_prekeys", [
            "one_time_prekeys": [[String: Any]](), "spk_id": 2, "spk": badSigned["spk"]!, "spk_signature": badSigned["spk_signature"]!,
        ])
        #expect(refused.errorCode == "invalid_field")
        #expect(try await people.bobSocket.call("get_prekey_count")["count"] as? Int == 55)
        #expect(try await people.annSocket.call("get_key_bundle", ["email": "nobody@example.org"]).errorCode == "not_found")
        try await people.server.stop()
    }

    @Test("a device keeps at most 1,000 one-time prekeys on a default server: past it an upload is refused in words and stores nothing",
          arguments: StoreBackend.allCases)
    func oneTimePreKeyLimit(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        func batch(_ first: Int, _ count: Int) -> [[String: Any]] {
            (first..<first + count).map { ["id": $0, "key": Data(repeating: UInt8($0 % 251), count: 32).base64EncodedString()] }
        }
        let registered = try #require(try await people.bobSocket.call("get_prekey_count")["count"] as? Int)
        var next = 1_000
        var count = registered
        while count + 100 <= 1_000 {
            let added = try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": batch(next, 100)])
            count += 100
            #expect(added["count"] as? Int == count, "\(added)")
            next += 100
        }
        let room = 1_000 - count
        let refused = try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": batch(next, room + 1)])
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.errorMessage?.contains("already has \(count) one-time prekeys") == true
                    && refused.errorMessage?.contains("at most 1000") == true, "\(refused.errorMessage ?? "")")
        #expect(try await people.bobSocket.call("get_prekey_count")["count"] as? Int == count, "nothing of the refused upload was stored")
        #expect(try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": batch(next, room)])["count"] as? Int == 1_000)
        // Ann starting a session takes one; then one more fits again.
        #expect(try await people.annSocket.call("get_key_bundle", ["email": people.bob.email]).ok)
        #expect(try await people.bobSocket.call("ensure_prekeys", ["one_time_prekeys": batch(next + room, 1)])["count"] as? Int == 1_000)
        #expect(try await people.bobSocket.call("ping").ok)
        try await people.server.stop()
    }

    @Test("get_messages ends a page at 1 MiB of ciphertext, on a default server, so no answer grows with the envelopes waiting", arguments: StoreBackend.allCases)
    func pageByteBudget(_ backend: StoreBackend) async throws {
        let people = try await TwoPeople.start(backend: backend)
        let conversation = try await people.directConversation()
        // Six envelopes of 250,000 bytes: each request line (about 333 KB of base64) fits the default 1 MiB.
        for index in 0..<6 {
            let ciphertext = Data(repeating: UInt8(index + 1), count: 250_000).base64EncodedString()
            let sent = try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "big-\(index)",
                "envelopes": [["account_id": people.bobID, "device_id": 1, "ciphertext": ciphertext]],
            ])
            #expect(sent.ok, "\(sent)")
        }
        // 4 × 250,000 bytes fit in 1,048,576; the fifth would not.
        let first = try await people.bobSocket.call("get_messages", ["limit": 500])
        let firstPage = try #require(first["messages"] as? [[String: Any]])
        #expect(firstPage.count == 4 && first["has_more"] as? Bool == true)
        #expect(firstPage.compactMap { ($0["ciphertext"] as? String).flatMap { Data(base64Encoded: $0) }?.first } == [1, 2, 3, 4])
        let after = try #require(firstPage.last?["timestamp"] as? Int)
        let second = try await people.bobSocket.call("get_messages", ["after_ts": after, "limit": 500])
        let secondPage = try #require(second["messages"] as? [[String: Any]])
        #expect(secondPage.count == 2 && second["has_more"] as? Bool == false)
        #expect(secondPage.compactMap { ($0["ciphertext"] as? String).flatMap { Data(base64Encoded: $0) }?.first } == [5, 6])
        try await people.server.stop()
    }

    @Test("a sender whose undelivered messages fill their quota is refused until the recipient fetches; nobody else is", arguments: StoreBackend.allCases)
    func undeliveredQuota(_ backend: StoreBackend) async throws {
        // A test of this limit: 100,000 bytes instead of 1 GiB, so that three messages reach it.
        let people = try await TwoPeople.start(backend: backend) { $0.undeliveredQuota = 100_000 }
        let conversation = try await people.directConversation()
        func send(_ socket: LineSocket, to account: Int, _ id: String, fill: UInt8) async throws -> [String: Any] {
            try await socket.call("send_message", [
                "conversation_id": conversation, "client_message_id": id,
                "envelopes": [["account_id": account, "device_id": 1, "ciphertext": Data(repeating: fill, count: 40_000).base64EncodedString()]],
            ])
        }
        #expect(try await send(people.annSocket, to: people.bobID, "a1", fill: 1).ok)
        #expect(try await send(people.annSocket, to: people.bobID, "a2", fill: 2).ok)
        let refused = try await send(people.annSocket, to: people.bobID, "a3", fill: 3)
        #expect(refused.errorCode == "quota_exceeded")
        let reason = refused.errorMessage ?? ""
        #expect(reason.contains("waiting for delivery") && reason.contains("78.1 KiB") && reason.contains("97.7 KiB"), "\(reason)")
        // Nothing of it was stored or announced; Bob is not held back by Ann's quota.
        let waiting = try await people.bobSocket.call("get_messages", ["limit": 500])
        let page = try #require(waiting["messages"] as? [[String: Any]])
        #expect(page.compactMap { ($0["ciphertext"] as? String).flatMap { Data(base64Encoded: $0) }?.first } == [1, 2])
        #expect(try await send(people.bobSocket, to: people.annID, "b1", fill: 9).ok)
        // Bob's device has the first now: the same message goes through when Ann sends it again.
        let first = try #require(page.first?["message_id"] as? Int)
        #expect(try await people.bobSocket.call("confirm_delivery", ["message_ids": [first]]).ok)
        #expect(try await send(people.annSocket, to: people.bobID, "a3", fill: 3).ok)
        #expect(try await send(people.annSocket, to: people.bobID, "a4", fill: 4).errorCode == "quota_exceeded")
        try await people.server.stop()
    }
}
