import Foundation
@testable import ParleyServer
import Testing

/// What a sender's messages hold waiting for delivery (`MessageStore.undeliveredBytes`), identical on every backend:
/// it rises only with what is stored, a message past the limit stores nothing, and every way an envelope can be
/// deleted (statements and cascades alike) takes its bytes off again.
@Suite("Store conformance: undelivered bytes")
struct UndeliveredBytesConformanceTests {
    /// A message whose envelopes hold exactly `sizes` bytes, from `sender`'s device 1.
    static func message(_ conversation: Int64, from sender: Int64, _ sizes: [(Int64, UInt32, Int)], clientID: String) -> NewMessage {
        var message = Sample.message(conversation, from: sender, to: sizes.map { ($0.0, $0.1) }, clientID: clientID)
        for (index, size) in sizes.enumerated() {
            message.envelopes[index].ciphertext = [UInt8](repeating: UInt8(index + 1), count: size.2)
        }
        return message
    }

    @Test("the total rises with what is stored; a message past the limit is refused whole; a retry is still answered", arguments: StoreBackend.allCases)
    func limit(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            // Above 2 KiB, so that PostgreSQL stores them out of line as it does real envelopes.
            let first = Self.message(p.conversation, from: p.ann, [(p.bob, 1, 3_000), (p.bob, 2, 4_000)], clientID: "m1")
            guard case .stored(let stored) = try await store.insertMessage(first, now: 100, checkingMembers: false, maximumUndeliveredBytes: 7_000) else {
                Issue.record("a message exactly at the limit was refused")
                return
            }
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 7_000)
            #expect(try await store.undeliveredBytes(senderID: p.bob) == 0)

            let second = Self.message(p.conversation, from: p.ann, [(p.bob, 1, 1_500), (p.bob, 2, 1_500)], clientID: "m2")
            guard case .overQuota(let held) = try await store.insertMessage(second, now: 200, checkingMembers: false, maximumUndeliveredBytes: 9_999) else {
                Issue.record("a message one byte past the limit was stored")
                return
            }
            #expect(held == 7_000)
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 7_000, "a refused message added nothing")
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id) == [stored.id],
                    "a refused message stored nothing")

            guard case .stored = try await store.insertMessage(second, now: 300, checkingMembers: false, maximumUndeliveredBytes: 10_000) else {
                Issue.record("a message exactly at the limit was refused")
                return
            }
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 10_000)
            // A retry of a stored message is answered whatever the total: it stores nothing more.
            guard case .stored(let retry) = try await store.insertMessage(first, now: 400, checkingMembers: false, maximumUndeliveredBytes: 0) else {
                Issue.record("a retry was refused for a limit it adds nothing to")
                return
            }
            #expect(retry == StoredMessage(id: stored.id, timestamp: stored.timestamp, created: false))
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 10_000)

            // A delivery makes room at once: the next message that fits only in the bytes it released is stored.
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [stored.id], now: 500)
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 7_000)
            let third = Self.message(p.conversation, from: p.ann, [(p.bob, 1, 3_000)], clientID: "m3")
            guard case .stored = try await store.insertMessage(third, now: 600, checkingMembers: false, maximumUndeliveredBytes: 10_000) else {
                Issue.record("the delivered envelope's bytes were still counted")
                return
            }
            #expect(try await store.undeliveredBytes(senderID: p.ann) == 10_000)
        }
    }

    @Test("envelopes withheld from whoever blocked the sender are not stored and do not count", arguments: StoreBackend.allCases)
    func withheldEnvelopes(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cat = try await Sample.activeAccount(store, "cat@example.org")
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, cat], now: 1).conversation.id
            #expect(try await store.block(ann, by: bob, limit: 100, now: 2))
            let message = Self.message(group, from: ann, [(bob, 1, 2_000), (cat, 1, 2_500)], clientID: "g1")
            guard case .stored(let stored) = try await store.insertMessage(message, now: 100, checkingMembers: false, maximumUndeliveredBytes: 2_500) else {
                Issue.record("the withheld envelope was counted against the limit")
                return
            }
            #expect(stored.withheld.contains(bob))
            #expect(try await store.undeliveredBytes(senderID: ann) == 2_500)
        }
    }

    @Test("sends and deliveries both ways at once leave each total at what its envelopes still hold", arguments: StoreBackend.allCases)
    func concurrent(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            // Each task sends one message and confirms the other person's previous one, so that deliveries lock
            // the senders' totals while messages lock them too.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let (from, to) = index.isMultiple(of: 2) ? (p.ann, p.bob) : (p.bob, p.ann)
                    group.addTask {
                        let message = Self.message(p.conversation, from: from, [(to, 1, 2_100 + index), (to, 2, 100 + index)], clientID: "c\(index)")
                        _ = try await store.insertMessage(message, now: 100 + Int64(index))
                        let waiting = try await store.messages(accountID: from, deviceID: 1, afterTimestamp: 0, limit: 5)
                        _ = try await store.confirmDelivery(accountID: from, deviceID: 1, messageIDs: waiting.map(\.id), now: 200)
                    }
                }
                try await group.waitForAll()
            }
            for (sender, recipient) in [(p.ann, p.bob), (p.bob, p.ann)] {
                var waiting = 0
                for device: UInt32 in [1, 2] {
                    waiting += try await store.messages(accountID: recipient, deviceID: device, afterTimestamp: 0, limit: 100)
                        .reduce(0) { $0 + $1.ciphertext.count }
                }
                #expect(try await store.undeliveredBytes(senderID: sender) == Int64(waiting))
            }
        }
    }

    @Test("every way an envelope goes takes its bytes off: delivery, a removed device, a deleted message, conversation or account, the retention sweep", arguments: StoreBackend.allCases)
    func everyDeletion(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let cat = try await Sample.activeAccount(store, "cat@example.org")
            func held(_ account: Int64) async throws -> Int64 { try await store.undeliveredBytes(senderID: account) }

            let m1 = try await store.insertMessage(
                Self.message(p.conversation, from: p.ann, [(p.bob, 1, 3_000), (p.bob, 2, 4_000)], clientID: "m1"), now: 100)
            let m2 = try await store.insertMessage(
                Self.message(p.conversation, from: p.ann, [(p.bob, 1, 1_500), (p.bob, 2, 2_500)], clientID: "m2"), now: 200)
            #expect(try await held(p.ann) == 11_000)

            // A confirmed delivery; confirming again changes nothing.
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [m1.id], now: 300)
            #expect(try await held(p.ann) == 8_000)
            _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [m1.id], now: 301)
            #expect(try await held(p.ann) == 8_000)

            // A removed device: both its envelopes.
            try await store.removeDevice(accountID: p.bob, deviceID: 2)
            #expect(try await held(p.ann) == 1_500)

            // A message deleted for everyone.
            try await store.softDelete(messageID: m2.id, now: 400)
            #expect(try await held(p.ann) == 0)

            // A deleted group.
            let group = try await store.createConversation(kind: .group, creatorID: cat, memberIDs: [p.ann, p.bob], now: 2).conversation.id
            _ = try await store.insertMessage(Self.message(group, from: cat, [(p.ann, 1, 2_200), (p.bob, 1, 2_300)], clientID: "g1"), now: 500)
            #expect(try await held(cat) == 4_500)
            try await store.deleteConversation(conversationID: group, now: 600)
            #expect(try await held(cat) == 0)

            // The retention sweep.
            _ = try await store.insertMessage(Self.message(p.conversation, from: p.bob, [(p.ann, 1, 2_100)], clientID: "old"), now: 700)
            #expect(try await held(p.bob) == 2_100)
            _ = try await store.sweepExpired(now: 700 + 31 * RetentionPolicy.day, policy: RetentionPolicy())
            #expect(try await held(p.bob) == 0)

            // A deleted account: its direct conversation goes with every message in it (a cascade), and the
            // envelopes others sent it in groups go too.
            let now = 800 + 31 * RetentionPolicy.day
            let other = try await store.createConversation(kind: .group, creatorID: cat, memberIDs: [p.ann, p.bob], now: now).conversation.id
            _ = try await store.insertMessage(Self.message(p.conversation, from: p.bob, [(p.ann, 1, 2_400)], clientID: "direct"), now: now + 1)
            _ = try await store.insertMessage(Self.message(other, from: cat, [(p.ann, 1, 2_600), (p.bob, 1, 2_700)], clientID: "g2"), now: now + 2)
            _ = try await store.insertMessage(Self.message(other, from: p.ann, [(cat, 1, 2_800)], clientID: "g3"), now: now + 3)
            #expect(try await held(p.bob) == 2_400)
            #expect(try await held(cat) == 5_300)
            #expect(try await held(p.ann) == 2_800)
            #expect(try await store.deleteAccount(id: p.ann) != nil)
            #expect(try await held(p.bob) == 0, "the deleted direct conversation took bob's envelope with it")
            #expect(try await held(cat) == 2_700, "only the envelope to the deleted account went")
            #expect(try await held(p.ann) == 0)
        }
    }
}
