import Foundation
@testable import ParleyServer
import Testing

/// Message timestamps under concurrent inserts: unique and increasing for every account (the cursor of
/// `get_messages`), with no insert refused, while unrelated conversations proceed side by side.
@Suite("Store conformance: message clocks under concurrency")
struct MessageClockConformanceTests {
    @Test("60 concurrent inserts over 6 conversations sharing one person: all stored, every account's timestamps distinct", arguments: StoreBackend.allCases)
    func concurrentInserts(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let hub = try await Sample.activeAccount(store, "hub@example.org")
            var conversations: [(id: Int64, other: Int64)] = []
            for index in 0..<6 {
                let other = try await Sample.activeAccount(store, "p\(index)@example.org")
                // Half the conversations include the shared person, half are between two others.
                let partner = index.isMultiple(of: 2) ? hub : try await Sample.activeAccount(store, "q\(index)@example.org")
                let created = try await store.createConversation(kind: .direct, creatorID: other, memberIDs: [partner], now: 1)
                conversations.append((created.conversation.id, other))
            }
            let partners = try await withThrowingTaskGroup(of: (Int64, Int64, StoredMessage).self) { group in
                for (index, conversation) in conversations.enumerated() {
                    let partner = try await store.activeMemberDevices(conversationID: conversation.id)
                        .map(\.accountID).first { $0 != conversation.other }!
                    for round in 0..<10 {
                        group.addTask {
                            // All at the same wall-clock millisecond: the clocks must still separate them.
                            let message = Sample.message(conversation.id, from: conversation.other, to: [(partner, 1)], clientID: "c\(index)-\(round)")
                            return (conversation.other, partner, try await store.insertMessage(message, now: 5_000))
                        }
                    }
                }
                var stored: [(Int64, Int64, StoredMessage)] = []
                for try await result in group { stored.append(result) }
                return stored
            }
            #expect(partners.count == 60)
            let created = partners.filter { $0.2.created }.count
            #expect(created == 60)
            // Every account sees its messages with distinct timestamps, so paging by timestamp skips none.
            var byAccount: [Int64: [Int64]] = [:]
            for (sender, recipient, message) in partners {
                byAccount[sender, default: []].append(message.timestamp)
                byAccount[recipient, default: []].append(message.timestamp)
            }
            for (account, stamps) in byAccount {
                #expect(Set(stamps).count == stamps.count, "account \(account) has two messages at one timestamp")
            }
            #expect(byAccount[hub]?.count == 30)
            // And the shared person's device pages through all 30 in timestamp order, none skipped.
            var after: Int64 = 0
            var seen = 0
            while true {
                let page = try await store.messages(accountID: hub, deviceID: 1, afterTimestamp: after, limit: 7)
                guard let last = page.last else { break }
                #expect(page.map(\.timestamp) == page.map(\.timestamp).sorted())
                seen += page.count
                after = last.timestamp
            }
            #expect(seen == 30)
        }
    }
}
