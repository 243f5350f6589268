import Foundation
@testable import ParleyServer
import Testing

/// A database from before the `contacts` table (SQLite v17, PostgreSQL v18): the migration fills it from the
/// memberships there, counting conversations shared, and the triggers keep it from then on.
@Suite("Store migration: contacts")
struct ContactsMigrationTests {
    /// Group 1 (1, 2 active; 3 invited; 4 left), direct 2 (5 owes 1 an answer), direct 3 (2 and 3), group 4 (1 and 3,
    /// deleted), group 5 (1 and 2 again: they share two conversations).
    static func rows(active: String, bytes: (Int) -> String) -> [String] {
        let accounts = (1...5).map { "(\($0), 'p\($0)@example.org', 'p\($0)', \(bytes(32)), \(bytes(32)), \(active), 1)" }
        return [
            "INSERT INTO accounts (id, email, display_name, identity_key, auth_key, active, created_at) VALUES \(accounts.joined(separator: ", "))",
            """
            INSERT INTO conversations (id, kind, creator_id, direct_key, created_at, deleted_at) VALUES
                (1, 'group', 1, NULL, 1, NULL), (2, 'direct', 1, '1:5', 2, NULL), (3, 'direct', 2, '2:3', 3, NULL),
                (4, 'group', 1, NULL, 4, 9), (5, 'group', 2, NULL, 5, NULL)
            """,
            """
            INSERT INTO members (conversation_id, account_id, status, joined_at, request) VALUES
                (1, 1, 'active', 1, NULL), (1, 2, 'active', 1, NULL), (1, 3, 'invited', 1, NULL), (1, 4, 'left', 1, NULL),
                (2, 1, 'active', 2, NULL), (2, 5, 'active', 2, 'pending'),
                (3, 2, 'active', 3, NULL), (3, 3, 'active', 3, NULL),
                (4, 1, 'active', 4, NULL), (4, 3, 'active', 4, NULL),
                (5, 1, 'active', 5, NULL), (5, 2, 'active', 5, NULL)
            """,
        ]
    }

    static func expectMigrated(_ store: any Store) async throws {
        #expect(try await store.contactIDs(accountID: 1) == [2])
        #expect(try await store.contactIDs(accountID: 2) == [1, 3])
        #expect(try await store.contactIDs(accountID: 3) == [2])
        #expect(try await store.contactIDs(accountID: 4) == [])
        #expect(try await store.contactIDs(accountID: 5) == [], "a request not answered makes no contact")
        try await store.deleteConversation(conversationID: 1, now: 20)
        #expect(try await store.contactIDs(accountID: 1) == [2], "group 5 is still shared: two were counted")
        try await store.deleteConversation(conversationID: 5, now: 21)
        #expect(try await store.contactIDs(accountID: 1) == [])
        try await store.setRequestState(conversationID: 2, accountID: 5, nil)
        #expect(try await store.contactIDs(accountID: 5) == [1], "the triggers work on what was there before")
    }

    @Test("SQLite: the contacts are filled from the memberships")
    func sqlite() async throws {
        try await MigrationHarness.sqlite(upTo: "v17-deleted-groups-and-registrations", rows: Self.rows(active: "1", bytes: { "zeroblob(\($0))" })) { store in
            try await Self.expectMigrated(store)
        }
    }

    @Test("PostgreSQL: the contacts are filled from the memberships")
    func postgres() async throws {
        let rows = Self.rows(active: "TRUE", bytes: { "decode(repeat('ab', \($0)), 'hex')" })
        try await MigrationHarness.postgres(through: "v18-deleted-groups-and-registrations", rows: rows) { store in
            try await Self.expectMigrated(store)
        }
    }
}
