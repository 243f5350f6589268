import Foundation
@testable import ParleyServer
import Testing

/// A database from before the undelivered-bytes migration (SQLite v16, PostgreSQL v17), with envelopes waiting:
/// after the migration each sender's total is what its envelopes hold, and a delivery takes its bytes off (each
/// envelope learned its sender).
@Suite("Store migration: undelivered bytes")
struct UndeliveredBytesMigrationTests {
    /// Ann (1) sent message 1 to Bob's devices 1 (3,000 bytes) and 2 (500); Bob (2) sent message 2 to Ann's device
    /// 1 (700). Each string is one statement, with `{BYTES n}` standing for n bytes in the backend's SQL.
    static func rows(bytes: (Int) -> String) -> [String] {
        [
            "INSERT INTO accounts (id, email, display_name, identity_key, auth_key, created_at) VALUES (1, 'ann@example.org', 'ann', \(bytes(32)), \(bytes(32)), 1), (2, 'bob@example.org', 'bob', \(bytes(32)), \(bytes(32)), 1)",
            "INSERT INTO conversations (id, kind, creator_id, created_at) VALUES (1, 'direct', 1, 1)",
            "INSERT INTO messages (id, conversation_id, sender_id, sender_device, client_id, created_at, kind) VALUES (1, 1, 1, 1, 'a', 10, 'text'), (2, 1, 2, 1, 'b', 11, 'text')",
            "INSERT INTO envelopes (message_id, account_id, device_id, ciphertext) VALUES (1, 2, 1, \(bytes(3_000))), (1, 2, 2, \(bytes(500))), (2, 1, 1, \(bytes(700)))",
        ]
    }

    /// What the migrated store must show.
    static func expectMigrated(_ store: any Store) async throws {
        #expect(try await store.undeliveredBytes(senderID: 1) == 3_500)
        #expect(try await store.undeliveredBytes(senderID: 2) == 700)
        _ = try await store.confirmDelivery(accountID: 2, deviceID: 1, messageIDs: [1], now: 20)
        #expect(try await store.undeliveredBytes(senderID: 1) == 500)
        #expect(try await store.undeliveredBytes(senderID: 2) == 700)
    }

    @Test("SQLite: totals are added up from the envelopes already waiting")
    func sqlite() async throws {
        try await MigrationHarness.sqlite(upTo: "v15-account-administration", rows: Self.rows(bytes: { "zeroblob(\($0))" })) { store in
            try await Self.expectMigrated(store)
        }
    }

    @Test("PostgreSQL: totals are added up from the envelopes already waiting")
    func postgres() async throws {
        let rows = Self.rows(bytes: { "decode(repeat('ab', \($0)), 'hex')" }) + ["INSERT INTO account_clocks (account_id, last) VALUES (1, 11), (2, 11)"]
        try await MigrationHarness.postgres(through: "v16-account-clocks-at-creation", rows: rows) { store in
            try await Self.expectMigrated(store)
        }
    }

    @Test("a migration's statements are split at each ';' outside a function's dollar-quoted body")
    func statementSplitting() {
        let sql = """
            CREATE TABLE a (x BIGINT);
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM 1; RETURN NULL;
            END
            $$;
            CREATE TRIGGER t AFTER DELETE ON a FOR EACH STATEMENT EXECUTE FUNCTION f();

            """
        let statements = PostgresMigrations.statements(in: sql).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(statements.count == 3)
        #expect(statements.first == "CREATE TABLE a (x BIGINT)")
        #expect(statements.dropFirst().first?.hasSuffix("PERFORM 1; RETURN NULL;\nEND\n$$") == true)
        #expect(statements.last == "CREATE TRIGGER t AFTER DELETE ON a FOR EACH STATEMENT EXECUTE FUNCTION f()")
        // Every shipped migration splits into statements that each hold something.
        for (identifier, sql) in PostgresMigrations.all {
            #expect(!PostgresMigrations.statements(in: sql).isEmpty, "\(identifier)")
        }
    }
}
