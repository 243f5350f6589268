import Foundation
@testable import ParleyServer
import Testing

/// Sends and delivery confirmations that arrive together share one PostgreSQL transaction (`PostgresGroupCommit`):
/// each is stored once and answered only after its commit, a write that fails fails alone, and two nodes' batches
/// over the same accounts wait for each other instead of deadlocking.
@Suite("PostgreSQL group commit")
struct PostgresGroupCommitTests {
    /// Ann, bob and carl, a direct conversation between each two.
    struct People {
        let ids: [Int64]
        let conversations: [[Int64]: Int64]
        func conversation(_ a: Int64, _ b: Int64) -> Int64 { conversations[[min(a, b), max(a, b)]]! }
    }

    static func people(_ store: PostgresStore) async throws -> People {
        var ids: [Int64] = []
        for name in ["ann", "bob", "carl", "dan", "eve", "fay"] { ids.append(try await Sample.activeAccount(store, "\(name)@example.org")) }
        var conversations: [[Int64]: Int64] = [:]
        for a in 0..<ids.count { for b in (a + 1)..<ids.count {
            let made = try await store.createConversation(kind: .direct, creatorID: ids[a], memberIDs: [ids[b]], now: 1)
            conversations[[ids[a], ids[b]]] = made.conversation.id
        } }
        return People(ids: ids, conversations: conversations)
    }

    /// Sends `count` messages at once between every two of `people`, on `stores` in turn; returns what each answered.
    static func sendAtOnce(_ count: Int, _ people: People, on stores: [PostgresStore], tag: String) async throws -> [(Set<Int64>, StoredMessage)] {
        try await withThrowingTaskGroup(of: (Set<Int64>, StoredMessage).self) { group in
            for n in 0..<count {
                // Pairs that overlap in every order: (0,1), (2,3), (4,5), (1,2), (3,4), (5,0), (0,3), …
                let size = people.ids.count
                let sender = people.ids[n % size], recipient = people.ids[(n + 1 + (n / size) % (size - 1)) % size]
                let store = stores[n % stores.count]
                group.addTask {
                    let message = Sample.message(people.conversation(sender, recipient), from: sender, to: [(recipient, 1)], clientID: "\(tag)-\(n)")
                    return ([sender, recipient], try await store.insertMessage(message, now: 5_000))
                }
            }
            var answers: [(Set<Int64>, StoredMessage)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    @Test("sends arriving together share transactions; each is stored once, every account's timestamps distinct; confirmations too")
    func sendsShareTransactions() async throws {
        try await StoreBackend.withPostgresStore { store in
            let people = try await Self.people(store)
            let answers = try await Self.sendAtOnce(60, people, on: [store], tag: "m")
            #expect(answers.allSatisfy(\.1.created) && Set(answers.map(\.1.id)).count == 60)
            #expect(store.groupCommit.largestBatch.load(ordering: .relaxed) > 1, "nothing was grouped")
            for account in people.ids {
                // Each account's messages (sent and received) have distinct timestamps: its clock row ordered them.
                let stamps = try await store.read { db, log in
                    try await db.column("""
                        SELECT DISTINCT m.created_at FROM messages m LEFT JOIN envelopes e ON e.message_id = m.id
                        WHERE m.sender_id = \(account) OR e.account_id = \(account)
                        """, log, as: Int64.self)
                }
                #expect(stamps.count == answers.filter { $0.0.contains(account) }.count, "account \(account): \(stamps.count) distinct timestamps")
            }
            // Sent again (a retry), every one is found, not stored twice.
            let again = try await Self.sendAtOnce(60, people, on: [store], tag: "m")
            #expect(again.allSatisfy { !$0.1.created } && Set(again.map(\.1.id)) == Set(answers.map(\.1.id)))
            // Every recipient confirms at once: each delivery confirmed once, and told to its sender.
            let confirmed = try await withThrowingTaskGroup(of: [ConfirmedDelivery].self) { group in
                for account in people.ids {
                    let mine = try await store.messages(accountID: account, deviceID: 1, afterTimestamp: 0, limit: 100, maximumBytes: 1 << 20).map(\.id)
                    for id in mine { group.addTask { try await store.confirmDelivery(accountID: account, deviceID: 1, messageIDs: [id], now: 6_000) } }
                }
                var all: [ConfirmedDelivery] = []
                for try await some in group { all += some }
                return all
            }
            #expect(confirmed.count == 60 && Set(confirmed.map(\.messageID)).count == 60 && confirmed.allSatisfy(\.tellsSender))
        }
    }

    @Test("a write that fails in a batch fails alone: the others are stored, and nothing of the failed one")
    func aFailureFailsAlone() async throws {
        try await StoreBackend.withPostgresStore { store in
            let people = try await Self.people(store)
            let (ann, bob) = (people.ids[0], people.ids[1])
            let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
                for n in 0..<20 {
                    // One message names a conversation that does not exist: its insert breaks a foreign key.
                    let conversation = n == 7 ? 999_999 : people.conversation(ann, bob)
                    group.addTask {
                        let message = Sample.message(conversation, from: ann, to: [(bob, 1)], clientID: "f-\(n)")
                        return ("f-\(n)", (try? await store.insertMessage(message, now: 5_000)) != nil)
                    }
                }
                var outcomes: [String: Bool] = [:]
                for await (id, ok) in group { outcomes[id] = ok }
                return outcomes
            }
            #expect(outcomes.filter(\.value).count == 19 && outcomes["f-7"] == false)
            let stored = try await store.read { db, log in try await db.scalar("SELECT count(*) FROM messages", log, as: Int64.self) }
            #expect(stored == 19)
            #expect(store.groupCommit.batchesRunAgainAlone.load(ordering: .relaxed) >= 1 || store.groupCommit.largestBatch.load(ordering: .relaxed) == 1)
        }
    }

    @Test("two nodes' batches over the same accounts wait for each other, never deadlock")
    func twoNodesDoNotDeadlock() async throws {
        try await StoreBackend.withPostgresStores(2) { stores in
            let people = try await Self.people(stores[0])
            let answers = try await Self.sendAtOnce(80, people, on: stores, tag: "n")
            #expect(answers.allSatisfy(\.1.created) && Set(answers.map(\.1.id)).count == 80)
            #expect(stores.contains { $0.groupCommit.largestBatch.load(ordering: .relaxed) > 1 }, "nothing was grouped")
            // No batch failed (a deadlock would have, and its writes run again alone). Taking the batch's clock rows
            // first, in id order, is what rules a deadlock out; without it this run did not happen to deadlock either
            // (three tries), so this checks that batches of two nodes complete, not the lock order itself.
            #expect(stores.allSatisfy { $0.groupCommit.batchesRunAgainAlone.load(ordering: .relaxed) == 0 })
        }
    }
}
