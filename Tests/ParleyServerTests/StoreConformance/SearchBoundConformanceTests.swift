import Foundation
@testable import ParleyServer
import PostgresNIO
import Testing

/// `searchMessages` reads what its filters make it read, and no index bounds a filter that matches nothing: over an
/// account whose conversations hold many messages it would read every one (1,000,000 took 1.39 s on SQLite). It
/// stops at a bound instead (`MessageSearch.tooBroad`), while searches an index answers still find.
@Suite("Store conformance: a search's work is bounded")
struct SearchBoundConformanceTests {
    /// Messages in conversation `conversation` from `sender`, created at 1…count (one statement, no envelopes).
    static func fill(_ store: any Store, conversation: Int64, sender: Int64, count: Int) async throws {
        if let sqlite = store as? SQLiteStore {
            try await sqlite.write("fill") { db in
                try db.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
                    INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind)
                    SELECT \(conversation), \(sender), 1, 'fill-' || i, i, 'text' FROM n
                    """)
            }
        } else if let postgres = store as? PostgresStore {
            try await postgres.transaction("fill") { db, log in
                try await db.run(PostgresQuery(unsafeSQL: """
                    INSERT INTO messages (conversation_id, sender_id, sender_device, client_id, created_at, kind, directed)
                    SELECT \(conversation), \(sender), 1, 'fill-' || i, i, 'text', FALSE FROM generate_series(1, \(count)) AS i
                    """), log)
                try await db.run("ANALYZE messages", log)
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aFilterThatMatchesNothingStops(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let conversation = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 1).conversation
            // More than either bound reads (about 55,000 rows on SQLite, 50,000 candidates on PostgreSQL): the bound is
            // a count on both, so a fast machine refuses what a slow one does (a time bound alone answered 1,500,000
            // rows within 100 ms on one machine and not on another).
            let count = 300_000
            try await Self.fill(store, conversation: conversation.id, sender: bob, count: count)
            func search(_ query: MessageQuery) async throws -> MessageSearch {
                try await store.searchMessages(accountID: ann, query: query)
            }
            let nothing = MessageQuery(conversationID: nil, senderID: nil, kind: "no-such-kind", from: nil, to: nil, limit: 50)
            #expect(try await search(nothing) == .tooBroad, "every message would be read")
            var everyOneOfBobs = nothing
            everyOneOfBobs.senderID = bob
            #expect(try await search(everyOneOfBobs) == .tooBroad)
            // A sender who sent nothing is answered from an index, at once.
            var stranger = nothing
            stranger.kind = nil
            stranger.senderID = 999_999
            #expect(try await search(stranger) == .found([]))

            // Narrowed by time, the same filter reads a few thousand and answers.
            var narrow = nothing
            narrow.conversationID = conversation.id
            narrow.from = Int64(count) - 5_000
            guard case .found(let none) = try await search(narrow) else { Issue.record("a narrow search was refused"); return }
            #expect(none.isEmpty)
            var newest = narrow
            newest.kind = "text"
            newest.limit = 20
            guard case .found(let found) = try await search(newest) else { Issue.record("a narrow search was refused"); return }
            #expect(found.map(\.timestamp) == (0..<20).map { Int64(count) - $0 })
            // With no filter the newest come first from the time index, whatever the size.
            var latest = nothing
            latest.kind = nil
            if case .found(let page) = try await search(latest) {
                #expect(page.count == 50 && page.first?.timestamp == Int64(count))
            } else {
                Issue.record("the newest fifty were refused as too broad")
            }
            // Bob, the sender, is not a member of nothing: his own search is as bounded.
            #expect(try await store.searchMessages(accountID: bob, query: nothing) == .tooBroad)
        }
    }
}
