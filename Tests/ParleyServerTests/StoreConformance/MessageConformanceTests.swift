import Foundation
@testable import ParleyServer
import Testing

/// `MessageStore` behaviour, identical on every backend.
@Suite("Store conformance: messages")
struct MessageConformanceTests {
    struct Pair {
        let ann: Int64
        let bob: Int64
        let conversation: Int64
    }

    static func pair(_ store: any Store) async throws -> Pair {
        let ann = try await Sample.activeAccount(store, "ann@example.org")
        let bob = try await Sample.activeAccount(store, "bob@example.org")
        let conversation = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 1)
        return Pair(ann: ann, bob: bob, conversation: conversation.conversation.id)
    }

    @Test("a page ends with the message whose ciphertext takes it past the byte budget; the rest stay for the next page", arguments: StoreBackend.allCases)
    func byteBudget(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            // 3,000 bytes and up each: stored out of line by PostgreSQL (TOAST), as real envelopes are.
            let sizes = [3_000, 5_000, 4_000, 9_000, 3_500]
            for (index, size) in sizes.enumerated() {
                var message = Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "big\(index)")
                message.envelopes[0].ciphertext = [UInt8](repeating: UInt8(index + 1), count: size)
                _ = try await store.insertMessage(message, now: 100 + Int64(index))
            }
            func page(after: Int64 = 0, limit: Int = 10, budget: Int) async throws -> [Int] {
                try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: after, limit: limit, maximumBytes: budget).map(\.ciphertext.count)
            }
            // Before each row: 0, 3,000, 8,000, 12,000, 21,000 bytes.
            #expect(try await page(budget: 10_000) == [3_000, 5_000, 4_000], "the third starts at 8,000 ≤ 10,000 and ends the page")
            #expect(try await page(budget: 8_000) == [3_000, 5_000, 4_000], "a row starting exactly at the budget is still read")
            #expect(try await page(budget: 7_999) == [3_000, 5_000])
            #expect(try await page(budget: 0) == [3_000], "the first message always comes")
            #expect(try await page(budget: 1_000_000) == sizes)
            #expect(try await page(limit: 2, budget: 1_000_000) == [3_000, 5_000], "the count limit still holds")
            #expect(try await page(after: 102, budget: 1_000) == [9_000], "counted from the cursor")
            // What the handler sends of such a page: within the budget, the first always.
            let read = try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 11, maximumBytes: 10_000)
            #expect(MessageHandlers.pageWithin(read, limit: 10, maximumBytes: 10_000) == 2)
            #expect(MessageHandlers.pageWithin(read, limit: 1, maximumBytes: 10_000) == 1)
            #expect(MessageHandlers.pageWithin(Array(read.prefix(1)), limit: 10, maximumBytes: 0) == 1)
            #expect(MessageHandlers.pageWithin([], limit: 10, maximumBytes: 10_000) == 0)
        }
    }

    @Test("each device gets its own ciphertext and nobody else's; retries store once", arguments: StoreBackend.allCases)
    func perDevice(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            let message = Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.bob, 2)], clientID: "m1")
            let stored = try await store.insertMessage(message, now: 100)
            #expect(stored.created && stored.timestamp == 100)
            let retry = try await store.insertMessage(message, now: 500)
            #expect(retry == StoredMessage(id: stored.id, timestamp: 100, created: false))

            let bobPhone = try await store.messages(accountID: p.bob, deviceID: 2, afterTimestamp: 0, limit: 10)
            #expect(bobPhone.map(\.ciphertext) == [Array("to-\(p.bob)-2:m1".utf8)])
            #expect(bobPhone.first?.senderDevice == 1 && bobPhone.first?.kind == "text")
            // The sending device and a device nobody addressed get nothing.
            #expect(try await store.messages(accountID: p.ann, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.messages(accountID: p.bob, deviceID: 3, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.conversationID(ofMessage: stored.id) == p.conversation)
            #expect(try await store.conversationID(ofMessage: 999_999) == nil)
        }
    }

    @Test("the member check runs in the insert's transaction: it sees the member devices, and a refusal stores nothing", arguments: StoreBackend.allCases)
    func memberCheck(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            let expected = try await store.activeMemberDevices(conversationID: p.conversation).map { "\($0.accountID)/\($0.deviceID ?? 0)" }
            #expect(Set(expected) == ["\(p.ann)/1", "\(p.bob)/1"])
            let message = Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "m1")
            guard case .refused(let seen) = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [], clientID: "m1"), now: 100, checkingMembers: true) else {
                Issue.record("stored although the check refused")
                return
            }
            #expect(Set(seen.map { "\($0.accountID)/\($0.deviceID ?? 0)" }) == Set(expected))
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.messages(accountID: p.ann, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)

            guard case .stored(let stored) = try await store.insertMessage(message, now: 100, checkingMembers: true) else {
                Issue.record("refused although the check accepted")
                return
            }
            #expect(stored.created)
            // The check comes before the idempotency lookup: a retry the membership no longer allows is refused.
            guard case .refused = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [], clientID: "m1"), now: 200, checkingMembers: true) else {
                Issue.record("a refused retry returned the stored message")
                return
            }
            // A deleted conversation has no members to accept.
            try await store.deleteConversation(conversationID: p.conversation, now: 300)
            let afterDeletion = Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "m2")
            guard case .refused(let none) = try await store.insertMessage(afterDeletion, now: 400, checkingMembers: true) else {
                Issue.record("stored into a deleted conversation")
                return
            }
            #expect(none.isEmpty)
        }
    }

    @Test("timestamps strictly increase even when the clock stands still or goes back; paging by timestamp", arguments: StoreBackend.allCases)
    func ordering(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            var stamps: [Int64] = []
            for (index, now) in [100, 100, 90, 200].enumerated() {
                let stored = try await store.insertMessage(
                    Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "o\(index)"), now: Int64(now))
                stamps.append(stored.timestamp)
            }
            #expect(stamps == [100, 101, 102, 200])
            let page = try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 100, limit: 2)
            #expect(page.map(\.timestamp) == [101, 102])
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 102, limit: 10).map(\.timestamp) == [200])
            #expect(try await store.latestTimestamp(conversationID: p.conversation) == 200)
            #expect(try await store.latestTimestamp(conversationID: 999_999) == 0)
        }
    }

    @Test("concurrent sends get distinct, increasing timestamps and a retried key is stored once", arguments: StoreBackend.allCases)
    func concurrentSends(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            let results = try await withThrowingTaskGroup(of: StoredMessage.self) { group in
                for index in 0..<24 {
                    // Every third send repeats the key of the one before it: a client retrying.
                    let key = "c\(index - (index % 3 == 2 ? 1 : 0))"
                    group.addTask {
                        try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: key), now: 1_000)
                    }
                }
                return try await group.reduce(into: [StoredMessage]()) { $0.append($1) }
            }
            let created = results.filter(\.created)
            #expect(created.count == 16)
            #expect(Set(created.map(\.timestamp)).count == 16)
            #expect(Set(results.map(\.id)).count == 16)
            let fetched = try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 100)
            #expect(fetched.count == 16 && fetched.map(\.timestamp) == fetched.map(\.timestamp).sorted())
        }
    }

    @Test("delivery is confirmed once per device and reports the sender", arguments: StoreBackend.allCases)
    func acknowledge(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            let first = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "a1"), now: 10)
            let second = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "a2"), now: 11)
            let confirmed = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [second.id, first.id, 999_999], now: 20)
            #expect(confirmed.map(\.messageID) == [second.id, first.id] && confirmed.allSatisfy { $0.senderID == p.ann && $0.tellsSender })
            #expect(try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [first.id], now: 21).isEmpty)
            // Delivered means gone from the device's queue: the ciphertext is dropped, a third one is still there.
            let third = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "a3"), now: 12)
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id) == [third.id])
            // Another device's envelope is its own business.
            #expect(try await store.confirmDelivery(accountID: p.bob, deviceID: 2, messageIDs: [first.id], now: 21).isEmpty)
        }
    }

    @Test("a removed device's envelopes go with it", arguments: StoreBackend.allCases)
    func removedDevice(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await Self.pair(store)
            _ = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "r1"), now: 10)
            try await store.removeDevice(accountID: p.bob, deviceID: 1)
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
        }
    }
}
