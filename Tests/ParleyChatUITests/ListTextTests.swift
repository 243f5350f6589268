import Foundation
@testable import ParleyChatUI
import ParleyClient
import Testing

/// The pure parts of the lists commands print: which member a direct conversation is named after, and the
/// messages shown around a search hit.
@Suite struct ListTextTests {
    static func conversation(kind: String, members: [Int64]) throws -> Conversation {
        let kindJSON = String(decoding: try JSONEncoder().encode(kind), as: UTF8.self)
        let json = #"{"id":1,"kind":\#(kindJSON),"members":\#(members),"creatorID":1,"unread":0,"favourite":false}"#
        return try JSONDecoder().decode(Conversation.self, from: Data(json.utf8))
    }

    static func messages(_ ids: [Int64]) throws -> [Message] {
        try ids.map { id in
            let json = #"{"id":\#(id),"conversationID":1,"senderID":2,"senderDevice":1,"timestamp":\#(id),"text":"m\#(id)","kind":"text","reactions":{},"pinned":false,"deleted":false,"deliveredTo":[],"undecryptable":false}"#
            return try JSONDecoder().decode(Message.self, from: Data(json.utf8))
        }
    }

    @Test func aDirectConversationIsNamedAfterTheOtherPerson() throws {
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "direct", members: [1, 2]), me: 1) == 2)
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "direct", members: [2, 1]), me: 1) == 2)
        // Alone in it (the other person's account deleted), or not yet confirmed: no one else, or the first.
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "direct", members: [1]), me: 1) == nil)
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "direct", members: []), me: 1) == nil)
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "direct", members: [3, 4]), me: nil) == 3)
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "group", members: [1, 2]), me: 1) == nil)
        #expect(ConversationList.otherMember(of: try Self.conversation(kind: "\u{1B}[2Jdirect", members: [1, 2]), me: 1) == nil)
    }

    @Test func aGroupMemberIsShownInertAndMarked() {
        let hostile = MemberRow(accountID: 7, email: "eve@example.org", name: "Eve\u{1B}[2J", creator: true, you: false, trust: "unverified")
        #expect(hostile.line == "Eve␛[2J\teve@example.org\tcreator\tunverified")
        #expect(hostile.shortLabel == "Eve␛[2J (creator)")
        let me = MemberRow(accountID: 1, email: nil, name: nil, creator: false, you: true, trust: nil)
        #expect(me.line == "-\taccount 1\tyou" && me.shortLabel == "you")
        let unknown = MemberRow(accountID: 9, email: nil, name: nil, creator: false, you: false, trust: "trusted")
        #expect(unknown.line == "-\taccount 9\ttrusted" && unknown.shortLabel == "account 9")
    }

    @Test func aHitIsShownWithTheMessagesAroundIt() throws {
        let history = try Self.messages([10, 11, 12])
        #expect(SearchResults.neighbours(of: 11, in: history).before?.id == 10)
        #expect(SearchResults.neighbours(of: 11, in: history).after?.id == 12)
        #expect(SearchResults.neighbours(of: 10, in: history).before == nil)
        #expect(SearchResults.neighbours(of: 12, in: history).after == nil)
        // A hit outside the history read (older than its limit, or deleted meanwhile) stands alone.
        let missing = SearchResults.neighbours(of: 99, in: history)
        #expect(missing.before == nil && missing.after == nil)
        let empty = SearchResults.neighbours(of: 10, in: [])
        #expect(empty.before == nil && empty.after == nil)
        let single = SearchResults.neighbours(of: 10, in: try Self.messages([10]))
        #expect(single.before == nil && single.after == nil)
    }
}
