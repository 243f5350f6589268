import Foundation
@testable import ParleyServer
import Testing

/// A database from before deleted groups were cleared (SQLite v17, PostgreSQL v18): the pictures of groups deleted
/// before it (or never there) go, a living group's and a person's stay, and the deleted group's rows are swept
/// once past the TTL.
@Suite("Store migration: deleted groups")
struct DeletedGroupMigrationTests {
    /// Group 1 lives, group 2 was deleted at 5; pictures for both, for a group 3 that is not there, and for ann.
    static func rows(active: String, bytes: (Int) -> String) -> [String] {
        [
            "INSERT INTO accounts (id, email, display_name, identity_key, auth_key, active, created_at) VALUES (1, 'ann@example.org', 'ann', \(bytes(32)), \(bytes(32)), \(active), 1), (2, 'bob@example.org', 'bob', \(bytes(32)), \(bytes(32)), \(active), 1)",
            "INSERT INTO conversations (id, kind, creator_id, created_at, deleted_at) VALUES (1, 'group', 1, 1, NULL), (2, 'group', 1, 2, 5)",
            "INSERT INTO members (conversation_id, account_id, status, joined_at) VALUES (1, 1, 'active', 1), (2, 1, 'active', 2), (2, 2, 'invited', 2)",
            "INSERT INTO avatars (owner_kind, owner_id, blob, updated_at) VALUES ('group', 1, \(bytes(100)), 3), ('group', 2, \(bytes(200)), 3), ('group', 3, \(bytes(300)), 3), ('account', 1, \(bytes(50)), 3)",
        ]
    }

    static func expectMigrated(_ store: any Store) async throws {
        #expect(try await store.avatar(.group(1))?.blob.count == 100, "a living group's picture stays")
        #expect(try await store.avatar(.group(2)) == nil, "a deleted group's picture went")
        #expect(try await store.avatar(.group(3)) == nil, "a picture of no group went")
        #expect(try await store.avatar(.account(1))?.blob.count == 50, "a person's picture stays")
        let report = try await store.sweepExpired(now: 31 * RetentionPolicy.day, policy: RetentionPolicy(days: 30))
        #expect(report.conversations == 1 && report.memberships == 2)
        #expect(try await store.memberStatus(conversationID: 2, accountID: 2) == nil)
        #expect(try await store.memberStatus(conversationID: 1, accountID: 1) == .active)
    }

    @Test("SQLite: pictures of deleted groups go; the groups are swept after the TTL")
    func sqlite() async throws {
        try await MigrationHarness.sqlite(upTo: "v16-undelivered-bytes", rows: Self.rows(active: "1", bytes: { "zeroblob(\($0))" })) { store in
            try await Self.expectMigrated(store)
        }
    }

    @Test("PostgreSQL: pictures of deleted groups go; the groups are swept after the TTL")
    func postgres() async throws {
        let rows = Self.rows(active: "TRUE", bytes: { "decode(repeat('ab', \($0)), 'hex')" })
        try await MigrationHarness.postgres(through: "v17-undelivered-bytes", rows: rows) { store in
            try await Self.expectMigrated(store)
        }
    }
}
