import Foundation
import GRDB

extension SQLiteStore {
    static let summarySQL = """
        SELECT a.id, a.email, a.display_name, a.active, a.disabled_at, a.created_at,
            (SELECT COUNT(*) FROM devices d WHERE d.account_id = a.id) AS devices,
            (SELECT MAX(d.last_seen) FROM devices d WHERE d.account_id = a.id) AS last_seen,
            (SELECT COUNT(*) FROM envelopes e WHERE e.account_id = a.id AND e.delivered_at IS NULL) AS waiting,
            (SELECT COALESCE(SUM(LENGTH(e.ciphertext)), 0) FROM envelopes e WHERE e.account_id = a.id AND e.delivered_at IS NULL) AS waiting_bytes,
            (SELECT COUNT(*) FROM members m JOIN conversations c ON c.id = m.conversation_id
                WHERE m.account_id = a.id AND m.status = 'active' AND c.deleted_at IS NULL) AS conversations,
            (SELECT COUNT(*) FROM files f WHERE f.owner_id = a.id) AS files,
            (SELECT COALESCE(SUM(f.received), 0) FROM files f WHERE f.owner_id = a.id) AS file_bytes
        FROM accounts a
        """

    static func accountSummary(_ row: Row) -> AccountSummary {
        AccountSummary(
            id: row["id"], email: row["email"], displayName: row["display_name"], isActive: row["active"], disabledAt: row["disabled_at"],
            createdAt: row["created_at"], devices: row["devices"], lastSeen: row["last_seen"], waitingEnvelopes: row["waiting"],
            waitingBytes: row["waiting_bytes"], conversations: row["conversations"], files: row["files"], fileBytes: row["file_bytes"])
    }

    public func accountSummaries() async throws -> [AccountSummary] {
        try await read { db in try Row.fetchAll(db, sql: Self.summarySQL + " ORDER BY a.id").map(Self.accountSummary) }
    }

    public func accountSummary(id: Int64) async throws -> AccountSummary? {
        try await read { db in try Row.fetchOne(db, sql: Self.summarySQL + " WHERE a.id = ?", arguments: [id]).map(Self.accountSummary) }
    }

    public func setDisabled(accountID: Int64, at: Int64?) async throws -> Bool {
        try await write("account") { db in
            try db.execute(sql: "UPDATE accounts SET disabled_at = ? WHERE id = ?", arguments: [at, accountID])
            return db.changesCount > 0
        }
    }

    public func serverStats() async throws -> ServerStats {
        try await read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM accounts WHERE active = 1) AS accounts,
                        (SELECT COUNT(*) FROM accounts WHERE active = 0) AS pending,
                        (SELECT COUNT(*) FROM accounts WHERE disabled_at IS NOT NULL) AS disabled,
                        (SELECT COUNT(*) FROM devices) AS devices,
                        (SELECT COUNT(*) FROM conversations WHERE deleted_at IS NULL) AS conversations,
                        (SELECT COUNT(*) FROM envelopes WHERE delivered_at IS NULL) AS envelopes,
                        (SELECT COALESCE(SUM(LENGTH(ciphertext)), 0) FROM envelopes WHERE delivered_at IS NULL) AS ciphertext_bytes,
                        (SELECT COUNT(*) FROM files) AS files,
                        (SELECT COALESCE(SUM(received), 0) FROM files) AS file_bytes
                    """)!
            return ServerStats(
                accounts: row["accounts"], pendingAccounts: row["pending"], disabledAccounts: row["disabled"], devices: row["devices"],
                conversations: row["conversations"], envelopes: row["envelopes"], ciphertextBytes: row["ciphertext_bytes"],
                files: row["files"], fileBytes: row["file_bytes"])
        }
    }

    public func deleteAccount(id: Int64) async throws -> DeletedAccount? {
        try await write("account deletion") { db in
            guard let email = try String.fetchOne(db, sql: "SELECT email FROM accounts WHERE id = ?", arguments: [id]) else { return nil }
            let contacts = try Self.contactIDs(db, accountID: id)
            func activeOthers(_ conversation: Int64) throws -> [Int64] {
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT m.account_id FROM members m JOIN conversations c ON c.id = m.conversation_id
                        WHERE m.conversation_id = ? AND m.account_id != ? AND m.status = 'active' AND c.deleted_at IS NULL
                        ORDER BY m.account_id
                        """,
                    arguments: [conversation, id])
            }
            let directIDs = try Int64.fetchAll(
                db,
                sql: """
                    SELECT c.id FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE m.account_id = ? AND c.kind = 'direct' ORDER BY c.id
                    """,
                arguments: [id])
            let groupIDs = try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM conversations WHERE kind = 'group' AND (creator_id = ?1
                        OR id IN (SELECT conversation_id FROM members WHERE account_id = ?1)) ORDER BY id
                    """,
                arguments: [id])
            var direct: [DeletedAccount.Conversation] = []
            for conversation in directIDs {
                direct.append(.init(id: conversation, members: try activeOthers(conversation)))
                // Messages, their ciphertexts and reactions, files and memberships go with it (ON DELETE CASCADE).
                try db.execute(sql: "DELETE FROM conversations WHERE id = ?", arguments: [conversation])
            }
            var groups: [DeletedAccount.Conversation] = []
            for group in groupIDs { groups.append(.init(id: group, members: try activeOthers(group))) }
            // What it sent, wherever it is: unread copies included (its owner wants them gone).
            try db.execute(sql: "DELETE FROM messages WHERE sender_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM reactions WHERE account_id = ?", arguments: [id])
            // That it had others' messages: found through the conversations it was ever a member of (by the key,
            // not a scan of every delivery); the rest went with its direct conversations and its own messages.
            try db.execute(
                sql: """
                    DELETE FROM deliveries WHERE account_id = ?1 AND message_id IN (
                        SELECT id FROM messages WHERE conversation_id IN (SELECT conversation_id FROM members WHERE account_id = ?1))
                    """,
                arguments: [id])
            try db.execute(sql: "UPDATE messages SET pinned_by = NULL WHERE pinned_by = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM envelopes WHERE account_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM members WHERE account_id = ?", arguments: [id])
            for group in groupIDs {
                // Its groups' creator rights pass on (`GroupDeparture.handedOver`); a group no member is left in goes.
                if let heir = try Self.groupHeir(db, group) {
                    try db.execute(sql: "UPDATE conversations SET creator_id = ? WHERE id = ? AND creator_id = ?", arguments: [heir, group, id])
                } else {
                    try db.execute(sql: "DELETE FROM conversations WHERE id = ?", arguments: [group])
                    try db.execute(sql: "DELETE FROM avatars WHERE owner_kind = 'group' AND owner_id = ?", arguments: [group])
                }
            }
            try db.execute(sql: "DELETE FROM login_nonces WHERE account_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM avatars WHERE owner_kind = 'account' AND owner_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM lockouts WHERE subject = ? OR subject LIKE ? ESCAPE '\\'",
                           arguments: ["account:\(email)", Self.likePrefix("account-address:\(email) ")])
            for table in ["verifications", "pairings", "held_invites"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE email = ?", arguments: [email])
            }
            // Devices and prekeys, profile, files it owns, location routes and followers, blocks (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id])
            return DeletedAccount(
                accountID: id, email: email, contacts: contacts, directConversations: direct, groups: groups)
        }
    }

    /// `text` as a LIKE pattern matching itself followed by anything.
    static func likePrefix(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
