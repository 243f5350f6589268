import Foundation
import GRDB

extension SQLiteStore {
    public func requestState(conversationID: Int64, accountID: Int64) async throws -> RequestState? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT request FROM members WHERE conversation_id = ? AND account_id = ?", arguments: [conversationID, accountID]
            ).flatMap(RequestState.init(rawValue:))
        }
    }

    public func requestPartners(accountID: Int64) async throws -> [Int64] {
        try await read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT other.account_id FROM members mine
                    JOIN conversations c ON c.id = mine.conversation_id AND c.kind = 'direct' AND c.deleted_at IS NULL
                    JOIN members other ON other.conversation_id = mine.conversation_id AND other.account_id != mine.account_id
                    WHERE mine.account_id = ?1 AND mine.status = 'active' AND other.status = 'active'
                        AND (mine.request = 'pending' OR other.request = 'pending')
                        AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = other.account_id)
                        AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = other.account_id AND blocked_id = ?1)
                    ORDER BY other.account_id
                    """,
                arguments: [accountID])
        }
    }

    public func unansweredRequests(startedBy accountID: Int64) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE c.creator_id = ? AND c.kind = 'direct' AND c.deleted_at IS NULL AND m.account_id <> c.creator_id
                        AND m.request = 'pending'
                    """,
                arguments: [accountID]) ?? 0
        }
    }

    public func requestDeleted(from starter: Int64, to other: Int64, since: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM conversations c JOIN members m ON m.conversation_id = c.id
                        WHERE c.direct_key = ? AND c.deleted_at >= ? AND c.creator_id = ? AND m.account_id = ? AND m.request = 'pending')
                    """,
                arguments: ["\(min(starter, other)):\(max(starter, other))", since, starter, other]) ?? false
        }
    }

    public func setRequestState(conversationID: Int64, accountID: Int64, _ state: RequestState?) async throws {
        try await write("request") { db in
            try db.execute(
                sql: "UPDATE members SET request = ? WHERE conversation_id = ? AND account_id = ?",
                arguments: [state?.rawValue, conversationID, accountID])
        }
    }

    public func requests(accountID: Int64) async throws -> [RequestRecord] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.*, a.id AS requester_id, a.email, a.display_name,
                        (SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id AND directed = 0) AS last_message_at
                    FROM members m
                    JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
                    JOIN members o ON o.conversation_id = c.id AND o.account_id != m.account_id
                    JOIN accounts a ON a.id = o.account_id
                    WHERE m.account_id = ? AND m.request = 'pending' AND m.status = 'active'
                    ORDER BY COALESCE(last_message_at, c.created_at) DESC
                    """,
                arguments: [accountID]
            ).map { row in
                RequestRecord(
                    conversation: Self.conversationRecord(row), requesterID: row["requester_id"], requesterEmail: row["email"],
                    requesterName: row["display_name"], lastMessageAt: row["last_message_at"])
            }
        }
    }

    public func block(_ blocked: Int64, by blocker: Int64, limit: Int, now: Int64) async throws -> Bool {
        try await write("block") { db in
            let listed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blocks WHERE blocker_id = ?", arguments: [blocker]) ?? 0
            let present = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?)", arguments: [blocker, blocked]) ?? false
            guard present || listed < limit else { return false }
            try db.execute(
                sql: "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", arguments: [blocker, blocked, now])
            try db.execute(
                sql: """
                    UPDATE members SET request = 'declined' WHERE account_id = ? AND request = 'pending' AND conversation_id IN (
                        SELECT conversation_id FROM members WHERE account_id = ?)
                    """,
                arguments: [blocker, blocked])
            return true
        }
    }

    public func unblock(_ blocked: Int64, by blocker: Int64) async throws {
        try await write("block") { db in
            try db.execute(sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: [blocker, blocked])
        }
    }

    public func blockedAccounts(by blocker: Int64) async throws -> [BlockedEntry] {
        try await read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.blocked_id, a.display_name FROM blocks b JOIN accounts a ON a.id = b.blocked_id
                WHERE b.blocker_id = ? ORDER BY b.created_at, b.blocked_id
                """, arguments: [blocker])
                .map { BlockedEntry(accountID: $0["blocked_id"], displayName: $0["display_name"]) }
        }
    }

    public func hasBlocked(_ blocker: Int64, _ blocked: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?)", arguments: [blocker, blocked]) ?? false
        }
    }

    public func blockPartners(of accountID: Int64) async throws -> Set<Int64> {
        try await read { db in
            Set(try Int64.fetchAll(
                db, sql: "SELECT blocked_id FROM blocks WHERE blocker_id = ?1 UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1",
                arguments: [accountID]))
        }
    }
}
