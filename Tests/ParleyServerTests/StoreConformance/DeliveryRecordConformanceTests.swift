import Foundation
@testable import ParleyServer
import Testing

/// What a sender learns later about its messages (`get_message_state`): who has them and who read them,
/// identical on every backend.
@Suite("Store conformance: deliveries and read marks")
struct DeliveryRecordConformanceTests {
    static let day: Int64 = 86_400_000

    @Test("an account that confirmed is recorded once, whichever device; the sender's own devices are not", arguments: StoreBackend.allCases)
    func deliveries(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let message = try await store.insertMessage(
                Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.bob, 2), (p.ann, 2)], clientID: "d1"), now: 10)
            let other = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "d2"), now: 11)
            #expect(try await store.deliveredTo(messageID: message.id).isEmpty, "nobody has it yet")
            // Ann's second device takes her self-copy: that is no delivery to anyone.
            _ = try await store.confirmDelivery(accountID: p.ann, deviceID: 2, messageIDs: [message.id], now: 12)
            #expect(try await store.deliveredTo(messageID: message.id).isEmpty)
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 2, messageIDs: [message.id, 999_999], now: 13)
            #expect(try await store.deliveredTo(messageID: message.id) == [p.bob])
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [message.id], now: 14)
            #expect(try await store.deliveredTo(messageID: message.id) == [p.bob], "a second device adds nobody")
            #expect(try await store.deliveredTo(messageID: other.id).isEmpty, "only what was confirmed")
            // Confirming what one has no envelope of (someone else's id) records nothing.
            let carl = try await Sample.activeAccount(store, "carl@example.org")
            #expect(try await store.confirmDelivery(accountID: carl, deviceID: 1, messageIDs: [other.id], now: 15).isEmpty)
            #expect(try await store.deliveredTo(messageID: other.id).isEmpty)
            #expect(try await store.deliveredTo(messageID: 999_999).isEmpty)
        }
    }

    @Test("the record goes with its message when the retention sweep takes it", arguments: StoreBackend.allCases)
    func sweptWithTheMessage(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let t0 = 100 * Self.day
            let old = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "o"), now: t0)
            let young = try await store.insertMessage(
                Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "y"), now: t0 + 20 * Self.day)
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [old.id, young.id], now: t0 + 20 * Self.day + 1)
            _ = try await store.sweepExpired(now: t0 + 31 * Self.day, policy: RetentionPolicy(days: 30))
            #expect(try await store.messageMetadata(id: old.id) == nil)
            #expect(try await store.deliveredTo(messageID: old.id).isEmpty)
            #expect(try await store.deliveredTo(messageID: young.id) == [p.bob])
        }
    }

    @Test("read marks name active members who answered no request, with when they joined", arguments: StoreBackend.allCases)
    func readMarks(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let conversation = try await store.createConversation(
                kind: .direct, creatorID: ann, memberIDs: [bob], request: .pending, now: 5).conversation.id
            _ = try await store.markRead(conversationID: conversation, accountID: bob, upTo: 50)
            // Bob has not accepted: he reads without it being told.
            #expect(try await store.readMarks(conversationID: conversation).map(\.accountID) == [ann])
            try await store.setRequestState(conversationID: conversation, accountID: bob, nil)
            let marks = try await store.readMarks(conversationID: conversation)
            #expect(marks.map(\.accountID) == [ann, bob])
            let bobs = try #require(marks.last)
            #expect(bobs.upTo == 50 && bobs.joinedAt == 5)
            #expect(bobs.covers(50) && bobs.covers(5) && !bobs.covers(51))
            #expect(!ReadMark(accountID: bob, upTo: 50, joinedAt: 20).covers(10), "sent before they joined")
            #expect(try await store.readMarks(conversationID: 999_999).isEmpty)
        }
    }

    @Test("block partners are those an account blocked and those that blocked it", arguments: StoreBackend.allCases)
    func blockPartners(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let carl = try await Sample.activeAccount(store, "carl@example.org")
            let dan = try await Sample.activeAccount(store, "dan@example.org")
            #expect(try await store.blockPartners(of: ann).isEmpty)
            _ = try await store.block(bob, by: ann, limit: 100, now: 1)
            _ = try await store.block(ann, by: carl, limit: 100, now: 2)
            _ = try await store.block(dan, by: carl, limit: 100, now: 3)
            #expect(try await store.blockPartners(of: ann) == [bob, carl])
            #expect(try await store.blockPartners(of: carl) == [ann, dan])
            try await store.unblock(bob, by: ann)
            #expect(try await store.blockPartners(of: ann) == [carl])
        }
    }

    @Test("a confirmation tells the sender unless it is the account's own message or a block stands either way",
          arguments: StoreBackend.allCases)
    func whoIsTold(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let carl = try await Sample.activeAccount(store, "carl@example.org")
            func send(_ from: Int64, _ id: String) async throws -> Int64 {
                try await store.insertMessage(Sample.message(p.conversation, from: from, to: [(p.bob, 1), (p.ann, 2)], clientID: id), now: 10).id
            }
            func told(_ account: Int64, _ device: UInt32, _ ids: [Int64]) async throws -> [Bool] {
                try await store.confirmDelivery(accountID: account, deviceID: device, messageIDs: ids, now: 20).map(\.tellsSender)
            }
            #expect(try await told(p.bob, 1, [try await send(p.ann, "t1")]) == [true])
            let own = try await send(p.ann, "t2")
            #expect(try await told(p.ann, 2, [own]) == [false], "her own copy")
            // Someone else's block changes nothing between these two.
            _ = try await store.block(carl, by: p.bob, limit: 100, now: 11)
            #expect(try await told(p.bob, 1, [try await send(p.ann, "t3")]) == [true])
            // Sent before the block (after it, nothing of hers reaches him), fetched after it.
            let before = try await send(p.ann, "t4")
            _ = try await store.block(p.ann, by: p.bob, limit: 100, now: 12)
            #expect(try await told(p.bob, 1, [before]) == [false], "bob blocked her")
            try await store.unblock(p.ann, by: p.bob)
            _ = try await store.block(p.bob, by: p.ann, limit: 100, now: 13)
            let both = [try await send(p.ann, "t5"), try await send(p.ann, "t6")]
            #expect(try await told(p.bob, 1, both) == [false, false], "she blocked him")
            try await store.unblock(p.bob, by: p.ann)
            #expect(try await told(p.bob, 1, [try await send(p.ann, "t7")]) == [true], "told again after the unblock")
        }
    }

    @Test("a message is stored for those who confirmed it or still have it waiting, never its sender or one it was withheld from",
          arguments: StoreBackend.allCases)
    func storedFor(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let message = try await store.insertMessage(
                Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.bob, 2), (p.ann, 2)], clientID: "s1"), now: 10)
            #expect(try await store.storedFor(messageID: message.id) == [p.bob], "waiting, and not her own copy")
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [message.id], now: 11)
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 2, messageIDs: [message.id], now: 11)
            #expect(try await store.storedFor(messageID: message.id) == [p.bob], "confirmed")
            _ = try await store.block(p.ann, by: p.bob, limit: 100, now: 12)
            let withheld = try await store.insertMessage(
                Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.bob, 2), (p.ann, 2)], clientID: "s2"), now: 13)
            #expect(try await store.storedFor(messageID: withheld.id).isEmpty)
            try await store.unblock(p.ann, by: p.bob)
            #expect(try await store.storedFor(messageID: withheld.id).isEmpty, "lifting the block brings nothing back")
            #expect(try await store.storedFor(messageID: 999_999).isEmpty)
        }
    }
}
