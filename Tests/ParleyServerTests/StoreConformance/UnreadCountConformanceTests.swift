import Foundation
@testable import ParleyServer
import Testing

/// Unread counts stop at `unreadCountLimit`: counting reads each message, and someone can be sent millions.
@Suite("Store conformance: unread counts")
struct UnreadCountConformanceTests {
    @Test("unread counts stop at 1,000 in the list and for one conversation, and drop with the read mark", arguments: StoreBackend.allCases)
    func capped(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let direct = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 10).conversation.id
            for index in 0..<(unreadCountLimit + 5) {
                _ = try await store.insertMessage(
                    Sample.message(direct, from: bob, to: [(ann, 1), (bob, 1)], clientID: "m\(index)"), now: 100 + Int64(index))
            }
            #expect(try await store.conversations(accountID: ann).first?.unreadCount == unreadCountLimit)
            #expect(try await store.conversation(id: direct, accountID: ann)?.unreadCount == unreadCountLimit)
            #expect(try await store.conversation(id: direct, accountID: bob)?.unreadCount == 0, "one's own messages are not unread")
            // Read up to all but the last three.
            _ = try await store.markRead(conversationID: direct, accountID: ann, upTo: 100 + Int64(unreadCountLimit + 1))
            #expect(try await store.conversation(id: direct, accountID: ann)?.unreadCount == 3)
        }
    }

    @Test("messages sent before someone joined a group are not unread for them", arguments: StoreBackend.allCases)
    func notBeforeJoining(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob], now: 10).conversation.id
            for index in 0..<3 {
                _ = try await store.insertMessage(Sample.message(group, from: ann, to: [(ann, 1)], clientID: "early\(index)"), now: 20 + Int64(index))
            }
            try await store.setMemberStatus(conversationID: group, accountID: bob, status: .active, now: 30)
            #expect(try await store.conversation(id: group, accountID: bob)?.unreadCount == 0)
            _ = try await store.insertMessage(Sample.message(group, from: ann, to: [(ann, 1), (bob, 1)], clientID: "later"), now: 40)
            #expect(try await store.conversation(id: group, accountID: bob)?.unreadCount == 1)
            #expect(try await store.conversations(accountID: bob).first?.unreadCount == 1)
        }
    }
}
