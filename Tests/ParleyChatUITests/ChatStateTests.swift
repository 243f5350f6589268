import Foundation
import ParleyClient
@testable import ParleyChatUI
import Testing

/// The chat's state: ordering, unread counts, names, ticks — what the screen is built from.
@Suite("parley chat: state")
struct ChatStateTests {
    func conversation(_ id: Int64, _ kind: String = "direct", members: [Int64], unread: Int = 0, favourite: Bool = false,
                      title: String? = nil, at time: Int64) -> Conversation {
        var fields: [String: Any] = ["id": id, "kind": kind, "members": members, "creatorID": members[0], "unread": unread,
                                     "favourite": favourite, "lastMessageAt": time]
        fields["title"] = title
        return decoded(fields)
    }

    func message(_ id: Int64, in conversation: Int64, from sender: Int64, _ text: String, at time: Int64,
                 replyTo: Int64? = nil, deliveredTo: [Int64] = []) -> Message {
        var fields: [String: Any] = ["id": id, "conversationID": conversation, "senderID": sender, "senderDevice": 1, "timestamp": time,
                                     "text": text, "kind": "text", "reactions": [String: [Int64]](), "pinned": false, "deleted": false,
                                     "deliveredTo": deliveredTo, "undecryptable": false]
        fields["replyTo"] = replyTo
        return decoded(fields)
    }

    /// The SDK's values have no public memberwise initialisers; they are Codable, so tests build them from JSON.
    func decoded<T: Decodable>(_ fields: [String: Any]) -> T {
        try! JSONDecoder().decode(T.self, from: JSONSerialization.data(withJSONObject: fields))
    }

    func state() -> ChatState {
        var state = ChatState(account: "ann@example.org", me: 1)
        state.conversations = [
            conversation(1, members: [1, 2], unread: 2, at: 3_000),
            conversation(2, "group", members: [1, 2, 3], title: "Trip", at: 2_000),
            conversation(3, members: [1, 3], favourite: true, at: 1_000),
        ]
        state.names = [2: "Bob", 3: "Carol"]
        state.online = [2]
        return state
    }

    @Test func favouritesFirstThenMostRecent() {
        let screen = state().screen(width: 80, height: 20)
        #expect(screen.conversations.map(\.name) == ["Carol", "Bob", "Trip"])
        #expect(screen.conversations.map(\.online) == [false, true, nil])
        #expect(screen.conversations.map(\.unread) == [0, 2, 0])
        #expect(screen.conversations.allSatisfy { $0.shield == nil })   // no trust data yet: the column stays empty
    }

    @Test func theShieldColumnIsDataDriven() {
        var state = state()
        state.shields = [3: "✓"]
        #expect(state.screen(width: 80, height: 20).conversations.map(\.shield) == ["✓", nil, nil])
    }

    @Test func aGroupRenamedShowsItsNewTitleAtOnce() {
        var state = state()
        state.rename(2, to: "Trip, May")
        state.rename(99, to: "not a conversation here")   // unknown: nothing changes
        #expect(state.screen(width: 80, height: 20).conversations.map(\.name) == ["Carol", "Bob", "Trip, May"])
        #expect(state.conversations.count == 3)
    }

    @Test func switchingWrapsAround() {
        var state = state()
        #expect(state.neighbour(1) == 3)   // nothing open: the first in display order
        state.selectedID = 3
        #expect(state.neighbour(1) == 1)
        #expect(state.neighbour(-1) == 2)
        state.selectedID = 2
        #expect(state.neighbour(1) == 3)
    }

    @Test func messagesElsewhereCountUnreadAndReorder() {
        var state = state()
        state.selectedID = 1
        state.messages = [message(10, in: 1, from: 2, "hi", at: 3_000)]
        let known = state.receive(message(11, in: 1, from: 2, "there", at: 3_100), isNew: true)
        #expect(!known)
        #expect(state.messages.map(\.id) == [10, 11])
        let elsewhere = state.receive(message(12, in: 2, from: 3, "group news", at: 4_000), isNew: true)
        #expect(!elsewhere)
        #expect(state.conversations.first?.id == 2)
        #expect(state.conversations.first { $0.id == 2 }?.unread == 1)
        // Our own message in another conversation is not unread; an unknown conversation asks for a reload.
        state.receive(message(13, in: 2, from: 1, "mine", at: 4_100), isNew: true)
        #expect(state.conversations.first { $0.id == 2 }?.unread == 1)
        let unknown = state.receive(message(14, in: 9, from: 4, "new conversation", at: 5_000), isNew: true)
        #expect(unknown)
        // An update replaces, never duplicates.
        var edited = message(11, in: 1, from: 2, "", at: 3_100)
        edited.deleted = true
        state.receive(edited, isNew: false)
        #expect(state.messages.map(\.id) == [10, 11])
        #expect(state.messages[1].deleted)
    }

    /// A read mark is a server time, as `messages_read` carries it: it covers what was sent at or before it,
    /// never what was sent after (message ids are far smaller than times, so comparing with the id read everything).
    @Test func ticksGoSentDeliveredRead() {
        var state = state()
        let sentAt: Int64 = 1_800_000_000_000
        #expect(state.tick(for: message(20, in: 1, from: 1, "hello", at: sentAt)) == .sent)
        let mine = message(20, in: 1, from: 1, "hello", at: sentAt, deliveredTo: [2])
        #expect(state.tick(for: message(20, in: 1, from: 1, "hello", at: sentAt, deliveredTo: [1])) == .sent)   // our own other device
        #expect(state.tick(for: message(20, in: 1, from: 1, "hello", at: sentAt, deliveredTo: [2])) == .delivered)
        state.markRead(conversation: 1, account: 2, upTo: sentAt - 1)
        #expect(state.tick(for: mine) == .delivered, "read up to just before it")
        // Someone whose mark passes it but who never had it (withheld while they blocked us) did not read it.
        state.markRead(conversation: 1, account: 3, upTo: sentAt + 100)
        #expect(state.tick(for: mine) == .delivered)
        state.markRead(conversation: 1, account: 2, upTo: sentAt)
        state.markRead(conversation: 1, account: 2, upTo: 5)   // a read mark never moves back
        #expect(state.tick(for: mine) == .read)
        let later = message(21, in: 1, from: 1, "later", at: sentAt + 200, deliveredTo: [2, 3])
        #expect(state.tick(for: later) == .delivered, "sent after the marks")
        // What this device learnt before the screen opened (`get_message_state`) counts as well.
        var learnt = message(22, in: 1, from: 1, "later", at: sentAt + 200)
        learnt.readBy = [2]
        #expect(state.tick(for: learnt) == .read)
        learnt.readBy = [1]
        #expect(state.tick(for: learnt) == .sent, "our own read mark is not theirs")
        #expect(state.tick(for: message(21, in: 1, from: 2, "theirs", at: 1)) == nil)
    }

    @Test func rowsShowNamesTimesQuotesAndAttachments() throws {
        var state = state()
        state.selectedID = 1
        var file = message(32, in: 1, from: 2, "the menu", at: 0)
        file.kind = "file"
        state.messages = [
            message(30, in: 1, from: 2, "Lunch at noon?\nor later", at: 0),
            message(31, in: 1, from: 1, "Yes", at: 90_000, replyTo: 30),
            file,
            message(33, in: 1, from: 7, "who?", at: 0, replyTo: 5),
        ]
        let screen = state.screen(width: 80, height: 20, timeZone: try #require(TimeZone(identifier: "UTC")))
        #expect(screen.title == "Bob · online")
        #expect(screen.messages.map(\.sender) == ["Bob", "me", "Bob", "account 7"])
        #expect(screen.messages.map(\.time) == ["00:00", "00:01", "00:00", "00:00"])
        #expect(screen.messages[1].quote == "#30 Bob: Lunch at noon?\nor later")
        #expect(screen.messages[1].tick == .sent)
        #expect(screen.messages[2].attachment == "file")
        #expect(screen.messages[0].attachment == nil)
        #expect(screen.messages[3].quote == "#5")
        #expect(state.unknownAccounts == [7])
        let lines = screen.render().lines
        #expect(lines.contains { $0.contains("┌ ↪ #30 Bob: Lunch at noon?") && !$0.contains("or later") })
    }

    @Test func aLockedScreenShowsNothingDecryptedAndThePINAsDots() {
        var state = state()
        state.selectedID = 2
        state.messages = [message(7, in: 2, from: 2, "the secret plan", at: 2_000)]
        state.locked = true
        state.input.insert("4711")
        let rendered = state.screen(width: 80, height: 16).render()
        let text = rendered.lines.joined(separator: "\n")
        for secret in ["the secret plan", "Trip", "Bob", "Carol", "4711"] {
            #expect(!text.contains(secret), "\(secret) is on the locked screen:\n\(text)")
        }
        #expect(text.contains("Locked"))
        #expect(text.contains("Type your vault PIN"))
        #expect(text.contains("••••"))
    }
}
