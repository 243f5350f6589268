import Foundation
@testable import ParleyServer
import Testing

/// `MessageActionStore` behaviour, identical on every backend.
@Suite("Store conformance: message actions")
struct MessageActionConformanceTests {
    @Test("a conversation holds at most `limit` pins: one more is refused and changes nothing; re-pinning and unpinning still work", arguments: StoreBackend.allCases)
    func pinLimit(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            var ids: [Int64] = []
            for index in 0..<4 {
                ids.append(try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "p\(index)"), now: 10 + Int64(index)).id)
            }
            #expect(try await store.setPinned(messageID: ids[0], by: p.ann, limit: 3, now: 20))
            #expect(try await store.setPinned(messageID: ids[1], by: p.ann, limit: 3, now: 21))
            #expect(try await store.setPinned(messageID: ids[2], by: p.bob, limit: 3, now: 22))
            #expect(try await !store.setPinned(messageID: ids[3], by: p.bob, limit: 3, now: 23), "a fourth pin")
            #expect(try await store.messageMetadata(id: ids[3])?.pinnedAt == nil)
            #expect(try await store.setPinned(messageID: ids[2], by: p.ann, limit: 3, now: 24), "pinned again: not one more")
            #expect(try await store.setPinned(messageID: ids[0], by: nil, limit: 3, now: 25))
            #expect(try await store.setPinned(messageID: ids[3], by: p.bob, limit: 3, now: 26), "a place freed")
            #expect(try await store.pinnedMessages(conversationID: p.conversation).map(\.id) == [ids[1], ids[2], ids[3]])
        }
    }

    @Test("reactions toggle; pins list oldest first; a soft delete drops ciphertexts, pins and reactions", arguments: StoreBackend.allCases)
    func actions(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let first = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "x1"), now: 10)
            let second = try await store.insertMessage(Sample.message(p.conversation, from: p.bob, to: [(p.ann, 1)], clientID: "x2"), now: 11)

            #expect(try await store.toggleReaction(messageID: first.id, accountID: p.bob, emoji: "👍", now: 20))
            #expect(try await store.toggleReaction(messageID: first.id, accountID: p.ann, emoji: "🎉", now: 21))
            #expect(try await !store.toggleReaction(messageID: first.id, accountID: p.bob, emoji: "👍", now: 22))
            #expect(try await store.toggleReaction(messageID: first.id, accountID: p.bob, emoji: "👍", now: 23))
            let reactions = try await store.reactions(messageID: first.id)
            #expect(reactions.map(\.0) == [p.ann, p.bob] && reactions.map(\.1) == ["🎉", "👍"])

            #expect(try await store.setPinned(messageID: second.id, by: p.ann, limit: 100, now: 30))
            #expect(try await store.setPinned(messageID: first.id, by: p.bob, limit: 100, now: 31))
            #expect(try await store.pinnedMessages(conversationID: p.conversation).map(\.id) == [second.id, first.id])
            #expect(try await store.setPinned(messageID: second.id, by: nil, limit: 100, now: 32))
            #expect(try await store.pinnedMessages(conversationID: p.conversation).map(\.id) == [first.id])
            #expect(try await store.messageMetadata(id: first.id)?.pinnedAt == 31)

            try await store.softDelete(messageID: first.id, now: 40)
            let deleted = try #require(try await store.messageMetadata(id: first.id))
            #expect(deleted.deletedAt == 40 && deleted.pinnedAt == nil && deleted.senderID == p.ann)
            #expect(try await store.reactions(messageID: first.id).isEmpty)
            #expect(try await store.pinnedMessages(conversationID: p.conversation).isEmpty)
            // Bob's ciphertext of the deleted message is gone; ann's of the other message stays.
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.messages(accountID: p.ann, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id) == [second.id])
            #expect(try await store.deletedMessages(accountID: p.bob, since: 39).map(\.id) == [first.id])
            #expect(try await store.deletedMessages(accountID: p.bob, since: 40).isEmpty)
            // Deleting twice keeps the first deletion time.
            try await store.softDelete(messageID: first.id, now: 50)
            #expect(try await store.messageMetadata(id: first.id)?.deletedAt == 40)
            try await store.setForwardedFrom(messageID: second.id, source: first.id)
            #expect(try await store.messageMetadata(id: 999_999) == nil)
        }
    }

    @Test("metadata search filters by conversation, sender, kind and time, newest first, only where the account is a member", arguments: StoreBackend.allCases)
    func search(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            let other = try await store.createConversation(kind: .direct, creatorID: cy, memberIDs: [p.bob], now: 2).conversation.id
            _ = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "s1"), now: 10)
            _ = try await store.insertMessage(Sample.message(p.conversation, from: p.bob, to: [(p.ann, 1)], clientID: "s2", kind: "file"), now: 20)
            _ = try await store.insertMessage(Sample.message(other, from: cy, to: [(p.bob, 1)], clientID: "s3"), now: 30)
            func search(_ account: Int64, _ adjust: (inout MessageQuery) -> Void = { _ in }) async throws -> [Int64] {
                var query = MessageQuery(conversationID: nil, senderID: nil, kind: nil, from: nil, to: nil, limit: 50)
                adjust(&query)
                guard case .found(let found) = try await store.searchMessages(accountID: account, query: query) else {
                    Issue.record("a search of a few messages was refused as too broad")
                    return []
                }
                return found.map(\.timestamp)
            }
            #expect(try await search(p.bob) == [30, 20, 10])
            #expect(try await search(p.ann) == [20, 10])
            #expect(try await search(p.bob) { $0.conversationID = p.conversation } == [20, 10])
            #expect(try await search(p.bob) { $0.senderID = cy } == [30])
            #expect(try await search(p.bob) { $0.kind = "file" } == [20])
            #expect(try await search(p.bob) { $0.from = 15; $0.to = 25 } == [20])
            #expect(try await search(p.bob) { $0.limit = 1 } == [30])
        }
    }
}
