import Foundation
import ParleyWire
import Testing

/// The typed bodies of conversations, message requests and messages: what one side writes the other reads back,
/// and a bad request is refused naming the field by its path.
@Suite("API bodies: conversations, requests, messages")
struct MessagingAPITests {
    static func readBack<T: WireBody>(_ body: T) throws -> T {
        // Through the JSON text, as on the wire.
        let line = try JSONWriter.bytes(body.json)
        guard case .object(let object) = try JSONParser.parse(line).0 else { throw CocoaError(.coderInvalidValue) }
        return try T(from: WireFields(object))
    }

    static func refusal<T: WireBody>(_ type: T.Type, _ fields: [String: JSONValue]) -> WireError? {
        do {
            _ = try T(from: WireFields(fields))
            return nil
        } catch {
            return error
        }
    }

    static let envelope = API.Envelope(accountID: 8, deviceID: 1, ciphertext: [1, 2, 3])

    @Test("every body reads back as it was written")
    func roundTrips() throws {
        let send = API.SendMessage.Request(
            conversationID: 12, clientMessageID: "6f1c", kind: "text", replyTo: 9040,
            envelopes: [Self.envelope, API.Envelope(accountID: 7, deviceID: 2, ciphertext: [9])])
        #expect(try Self.readBack(send) == send)
        let directed = API.SendMessage.Request(conversationID: 12, clientMessageID: "r", kind: "retry", envelopes: [Self.envelope], toAccountID: 8, toDeviceID: 1)
        #expect(try Self.readBack(directed) == directed)
        let forward = API.ForwardMessage.Request(messageID: 5, message: send)
        #expect(try Self.readBack(forward) == forward)
        let stored = API.StoredMessage(messageID: 9041, conversationID: 12, senderID: 7, senderDevice: 2, timestamp: 1_800_000_000_123,
                                       kind: "text", replyTo: 9040, ciphertext: [4, 5])
        let page = API.GetMessages.Response(messages: [stored], hasMore: true)
        #expect(try Self.readBack(page) == page)
        let summary = API.ConversationSummary(conversationID: 1, kind: .group, creatorID: 2, members: [2, 3], unread: 4, createdAt: 5,
                                              lastMessageAt: 6, request: .pending)
        #expect(try Self.readBack(API.ListConversations.Response(conversations: [summary])).conversations == [summary])
        let state = API.MessageState(messageID: 3, pinned: true, deleted: false, reactions: [API.Reaction(accountID: 2, emoji: "👍")])
        #expect(try Self.readBack(API.GetMessageState.Response(messages: [state])).messages == [state])
        let search = API.SearchMessages.Request(conversationID: 1, senderID: 2, kind: "file", from: 3, to: 4, limit: 5)
        #expect(try Self.readBack(search) == search)
        let request = API.MessageRequest(conversationID: 1, accountID: 2, email: "ann@example.org", displayName: "Ann", createdAt: 3)
        #expect(try Self.readBack(API.ListRequests.Response(requests: [request])).requests == [request])
        #expect(try Self.readBack(API.AccountChoice.email("ann@example.org")) == .email("ann@example.org"))
        #expect(try Self.readBack(API.AccountChoice.accountID(4)) == .accountID(4))
    }

    @Test("a message carries get_messages' fields, reply_to and ciphertext only when there are")
    func storedMessageFields() {
        let hint = API.StoredMessage(messageID: 1, conversationID: 2, senderID: 3, senderDevice: 4, timestamp: 5, kind: "text", ciphertext: nil)
        #expect(Set(hint.fields.keys) == ["message_id", "conversation_id", "sender_id", "sender_device", "timestamp", "kind"])
        let page: [String: JSONValue] = ["messages": .array([hint.json]), "has_more": false]
        #expect(Self.refusal(API.GetMessages.Response.self, page) == .missing("messages[0].ciphertext"))
    }

    @Test("a bad envelope is refused naming it by its place in the list")
    func envelopePaths() {
        func send(_ envelopes: [JSONValue], _ extra: [String: JSONValue] = [:]) -> WireError? {
            var fields: [String: JSONValue] = ["conversation_id": 1, "client_message_id": "c", "envelopes": .array(envelopes)]
            fields.merge(extra) { _, new in new }
            return Self.refusal(API.SendMessage.Request.self, fields)
        }
        let good = Self.envelope.json
        #expect(send([good, ["account_id": 7, "device_id": 1, "ciphertext": ""]]) == .invalid("envelopes[1].ciphertext", "must not be empty"))
        #expect(send([good, ["account_id": 7, "device_id": 1, "ciphertext": "not base64!"]]) == .invalid("envelopes[1].ciphertext", "must be standard base64"))
        let long = JSONValue.base64([UInt8](repeating: 1, count: API.Envelope.maximumBytes + 1))
        #expect(send([["account_id": 7, "device_id": 1, "ciphertext": long]])?.message.contains("envelopes[0].ciphertext") == true)
        #expect(send([["account_id": "x"]]) == .invalid("envelopes[0].account_id", "must be a number, not string"))
        #expect(send([good, .string("x")]) == .invalid("envelopes[1]", "must be an object, not string"))
        #expect(send([good, good]) == .invalid("envelopes", "names a device twice"))
        #expect(send(Array(repeating: good, count: API.SendMessage.maximumEnvelopes + 1))?.code == .invalidField)
        #expect(send([good], ["to_account_id": 8]) == .invalid("to_device_id", "comes with to_account_id, and both name a device"))
        #expect(send([good], ["to_account_id": 8, "to_device_id": 0])?.code == .invalidField)
        #expect(send([good], ["kind": .string(String(repeating: "k", count: 17))])?.code == .invalidField)
        #expect(send([good]) == nil)
    }

    @Test("shape rules of the protocol are the types' own")
    func shapes() {
        #expect(Self.refusal(API.CreateConversation.Request.self, ["kind": "direct", "members": ["a@b.c", "d@e.f"]])
            == .invalid("members", "a direct conversation has exactly one other member"))
        #expect(Self.refusal(API.CreateConversation.Request.self, ["kind": "circle", "members": ["a@b.c"]])?.code == .invalidField)
        #expect(Self.refusal(API.CreateConversation.Request.self, ["kind": "group", "members": ["a@b.c", 5]])
            == .invalid("members[1]", "must be a string, not number"))
        #expect(Self.refusal(API.ReactMessage.Request.self, ["message_id": 1, "emoji": "🦄"])?.code == .invalidField)
        #expect(Self.refusal(API.ReactMessage.Request.self, ["message_id": 1, "emoji": "👍"]) == nil)
        #expect(Self.refusal(API.GetMessageState.Request.self, ["message_ids": [1, 0]])?.message.contains("message_ids[1]") == true)
        #expect(Self.refusal(API.ConfirmDelivery.Request.self, ["message_ids": .ints(Array(0...500))])?.code == .invalidField)
        #expect(Self.refusal(API.GetMessages.Request.self, ["limit": 501])?.code == .invalidField)
        #expect(Self.refusal(API.AccountChoice.self, [:]) == .missing("account_id"))
        #expect(Self.refusal(API.AccountChoice.self, ["account_id": -3])?.code == .invalidField)
        #expect(Self.refusal(API.ForwardMessage.Request.self, ["conversation_id": 1, "client_message_id": "c", "envelopes": []]) == .missing("message_id"))
    }
}
