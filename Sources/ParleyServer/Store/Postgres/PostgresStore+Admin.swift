import Foundation
import PostgresNIO

extension PostgresStore {
    static let summarySQL = """
        SELECT a.id, a.email, a.display_name, a.active, a.disabled_at, a.created_at,
            (SELECT COUNT(*) FROM devices d WHERE d.account_id = a.id) AS devices,
            (SELECT MAX(d.last_seen) FROM devices d WHERE d.account_id = a.id) AS last_seen,
            (SELECT COUNT(*) FROM envelopes e WHERE e.account_id = a.id AND e.delivered_at IS NULL) AS waiting,
            (SELECT COALESCE(SUM(octet_length(e.ciphertext)), 0)::BIGINT FROM envelopes e
                WHERE e.account_id = a.id AND e.delivered_at IS NULL) AS waiting_bytes,
            (SELECT COUNT(*) FROM members m JOIN conversations c ON c.id = m.conversation_id
                WHERE m.account_id = a.id AND m.status = 'active' AND c.deleted_at IS NULL) AS conversations,
            (SELECT COUNT(*) FROM files f WHERE f.owner_id = a.id) AS files,
            (SELECT COALESCE(SUM(f.received), 0)::BIGINT FROM files f WHERE f.owner_id = a.id) AS file_bytes
        FROM accounts a
        """

    static func accountSummary(_ row: PostgresRandomAccessRow) throws -> AccountSummary {
        AccountSummary(
            id: try row.get("id"), email: try row.get("email"), displayName: try row.get("display_name"), isActive: try row.get("active"),
            disabledAt: try row.get("disabled_at"), createdAt: try row.get("created_at"), devices: Int(try row.get("devices", as: Int64.self)),
            lastSeen: try row.get("last_seen"), waitingEnvelopes: Int(try row.get("waiting", as: Int64.self)),
            waitingBytes: try row.get("waiting_bytes"), conversations: Int(try row.get("conversations", as: Int64.self)),
            files: Int(try row.get("files", as: Int64.self)), fileBytes: try row.get("file_bytes"))
    }

    public func accountSummaries() async throws -> [AccountSummary] {
        try await read { db, log in
            try await db.rows(PostgresQuery(unsafeSQL: Self.summarySQL + " ORDER BY a.id"), log).map(Self.accountSummary)
        }
    }

    public func accountSummary(id: Int64) async throws -> AccountSummary? {
        try await read { db, log in
            var bindings = PostgresBindings()
            bindings.append(id)
            return try await db.row(PostgresQuery(unsafeSQL: Self.summarySQL + " WHERE a.id = $1", binds: bindings), log)
                .map(Self.accountSummary)
        }
    }

    public func setDisabled(accountID: Int64, at: Int64?) async throws -> Bool {
        try await transaction("account") { db, log in
            try await db.scalar("UPDATE accounts SET disabled_at = \(at) WHERE id = \(accountID) RETURNING id", log, as: Int64.self) != nil
        }
    }

    public func serverStats() async throws -> ServerStats {
        try await read { db, log in
            guard let row = try await db.row(
                """
                SELECT (SELECT COUNT(*) FROM accounts WHERE active) AS accounts,
                    (SELECT COUNT(*) FROM accounts WHERE NOT active) AS pending,
                    (SELECT COUNT(*) FROM accounts WHERE disabled_at IS NOT NULL) AS disabled,
                    (SELECT COUNT(*) FROM devices) AS devices,
                    (SELECT COUNT(*) FROM conversations WHERE deleted_at IS NULL) AS conversations,
                    (SELECT COUNT(*) FROM envelopes WHERE delivered_at IS NULL) AS envelopes,
                    (SELECT COALESCE(SUM(octet_length(ciphertext)), 0)::BIGINT FROM envelopes WHERE delivered_at IS NULL) AS ciphertext_bytes,
                    (SELECT COUNT(*) FROM files) AS files,
                    (SELECT COALESCE(SUM(received), 0)::BIGINT FROM files) AS file_bytes
                """, log)
            else { throw StoreError.unavailable("statistics returned no row") }
            func count(_ name: String) throws -> Int { Int(try row.get(name, as: Int64.self)) }
            return ServerStats(
                accounts: try count("accounts"), pendingAccounts: try count("pending"), disabledAccounts: try count("disabled"),
                devices: try count("devices"), conversations: try count("conversations"), envelopes: try count("envelopes"),
                ciphertextBytes: try row.get("ciphertext_bytes"), files: try count("files"), fileBytes: try row.get("file_bytes"))
        }
    }

    public func deleteAccount(id: Int64) async throws -> DeletedAccount? {
        try await transaction("account deletion") { db, log in
            // The row lock keeps new memberships, follows and blocks of this account from committing meanwhile.
            guard let email = try await db.scalar("SELECT email FROM accounts WHERE id = \(id) FOR UPDATE", log, as: String.self) else {
                return nil
            }
            let contacts = try await Self.contactIDs(db, log, accountID: id)
            func activeOthers(_ conversation: Int64) async throws -> [Int64] {
                try await db.column(
                    """
                    SELECT m.account_id FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.conversation_id = \(conversation) AND m.account_id != \(id) AND m.status = 'active' AND c.deleted_at IS NULL
                    ORDER BY m.account_id
                    """, log, as: Int64.self)
            }
            let directIDs = try await db.column(
                """
                SELECT c.id FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE m.account_id = \(id) AND c.kind = 'direct' ORDER BY c.id
                """, log, as: Int64.self)
            let groupIDs = try await db.column(
                """
                SELECT id FROM conversations WHERE kind = 'group' AND (creator_id = \(id)
                    OR id IN (SELECT conversation_id FROM members WHERE account_id = \(id))) ORDER BY id
                """, log, as: Int64.self)
            var direct: [DeletedAccount.Conversation] = []
            for conversation in directIDs {
                direct.append(.init(id: conversation, members: try await activeOthers(conversation)))
                // Messages, their ciphertexts and reactions, files and memberships go with it (ON DELETE CASCADE).
                try await db.run("DELETE FROM conversations WHERE id = \(conversation)", log)
            }
            var groups: [DeletedAccount.Conversation] = []
            for group in groupIDs { groups.append(.init(id: group, members: try await activeOthers(group))) }
            // What it sent, wherever it is: unread copies included (its owner wants them gone).
            try await db.run("DELETE FROM messages WHERE sender_id = \(id)", log)
            try await db.run("DELETE FROM reactions WHERE account_id = \(id)", log)
            // That it had others' messages, through the conversations it was ever a member of (see SQLite's).
            try await db.run(
                """
                DELETE FROM deliveries WHERE account_id = \(id) AND message_id IN (
                    SELECT id FROM messages WHERE conversation_id IN (SELECT conversation_id FROM members WHERE account_id = \(id)))
                """, log)
            try await db.run("UPDATE messages SET pinned_by = NULL WHERE pinned_by = \(id)", log)
            try await db.run("DELETE FROM envelopes WHERE account_id = \(id)", log)
            try await db.run("DELETE FROM members WHERE account_id = \(id)", log)
            for group in groupIDs {
                // Its groups' creator rights pass on (`GroupDeparture.handedOver`); a group no member is left in goes.
                if let heir = try await Self.groupHeir(db, log, group) {
                    try await db.run("UPDATE conversations SET creator_id = \(heir) WHERE id = \(group) AND creator_id = \(id)", log)
                } else {
                    try await db.run("DELETE FROM conversations WHERE id = \(group)", log)
                    try await db.run("DELETE FROM avatars WHERE owner_kind = 'group' AND owner_id = \(group)", log)
                }
            }
            try await db.run("DELETE FROM login_nonces WHERE account_id = \(id)", log)
            try await db.run("DELETE FROM account_clocks WHERE account_id = \(id)", log)
            try await db.run("DELETE FROM undelivered_releases WHERE sender_id = \(id)", log)
            try await db.run("DELETE FROM avatars WHERE owner_kind = 'account' AND owner_id = \(id)", log)
            let lockoutPrefix = SQLiteStore.likePrefix("account-address:\(email) ")
            try await db.run(
                "DELETE FROM lockouts WHERE subject = \("account:\(email)") OR subject LIKE \(lockoutPrefix) ESCAPE '\\'", log)
            try await db.run("DELETE FROM rate_buckets WHERE subject = \("account:\(id)")", log)
            try await db.run("DELETE FROM verifications WHERE email = \(email)", log)
            try await db.run("DELETE FROM pairings WHERE email = \(email)", log)
            try await db.run("DELETE FROM held_invites WHERE email = \(email)", log)
            // Devices and prekeys, profile, files it owns, location routes and followers, blocks (ON DELETE CASCADE).
            try await db.run("DELETE FROM accounts WHERE id = \(id)", log)
            return DeletedAccount(accountID: id, email: email, contacts: contacts, directConversations: direct, groups: groups)
        }
    }
}
