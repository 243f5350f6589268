import Foundation
import PostgresNIO

extension PostgresStore {
    public func requestState(conversationID: Int64, accountID: Int64) async throws -> RequestState? {
        try await read { db, log in
            try await db.scalar(
                "SELECT request FROM members WHERE conversation_id = \(conversationID) AND account_id = \(accountID)", log, as: String?.self
            )?.flatMap(RequestState.init(rawValue:))
        }
    }

    public func requestPartners(accountID: Int64) async throws -> [Int64] {
        try await read { db, log in
            try await db.column(
                """
                SELECT DISTINCT other.account_id FROM members mine
                JOIN conversations c ON c.id = mine.conversation_id AND c.kind = 'direct' AND c.deleted_at IS NULL
                JOIN members other ON other.conversation_id = mine.conversation_id AND other.account_id != mine.account_id
                WHERE mine.account_id = \(accountID) AND mine.status = 'active' AND other.status = 'active'
                    AND (mine.request = 'pending' OR other.request = 'pending')
                    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(accountID) AND blocked_id = other.account_id)
                    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = other.account_id AND blocked_id = \(accountID))
                ORDER BY other.account_id
                """, log, as: Int64.self)
        }
    }

    public func unansweredRequests(startedBy accountID: Int64) async throws -> Int {
        try await read { db, log in
            let count = try await db.scalar(
                """
                SELECT COUNT(*) FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE c.creator_id = \(accountID) AND c.kind = 'direct' AND c.deleted_at IS NULL AND m.account_id <> c.creator_id
                    AND m.request = 'pending'
                """, log, as: Int64.self)
            return Int(count ?? 0)
        }
    }

    public func requestDeleted(from starter: Int64, to other: Int64, since: Int64) async throws -> Bool {
        let key = "\(min(starter, other)):\(max(starter, other))"
        return try await read { db, log in
            try await db.scalar(
                """
                SELECT EXISTS (SELECT 1 FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE c.direct_key = \(key) AND c.deleted_at >= \(since) AND c.creator_id = \(starter) AND m.account_id = \(other)
                        AND m.request = 'pending')
                """, log, as: Bool.self) ?? false
        }
    }

    public func setRequestState(conversationID: Int64, accountID: Int64, _ state: RequestState?) async throws {
        try await transaction("request") { db, log in
            try await db.run(
                "UPDATE members SET request = \(state?.rawValue) WHERE conversation_id = \(conversationID) AND account_id = \(accountID)", log)
        }
    }

    public func requests(accountID: Int64) async throws -> [RequestRecord] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT * FROM (
                    SELECT c.*, a.id AS requester_id, a.email, a.display_name,
                        (SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id AND NOT directed) AS last_message_at
                    FROM members m
                    JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
                    JOIN members o ON o.conversation_id = c.id AND o.account_id != m.account_id
                    JOIN accounts a ON a.id = o.account_id
                    WHERE m.account_id = \(accountID) AND m.request = 'pending' AND m.status = 'active'
                ) s ORDER BY COALESCE(last_message_at, created_at) DESC
                """, log
            ).map { row in
                RequestRecord(
                    conversation: try Self.conversationRecord(row), requesterID: try row.get("requester_id"),
                    requesterEmail: try row.get("email"), requesterName: try row.get("display_name"),
                    lastMessageAt: try row.get("last_message_at"))
            }
        }
    }

    public func block(_ blocked: Int64, by blocker: Int64, limit: Int, now: Int64) async throws -> Bool {
        try await transaction("block") { db, log in
            // The blocker's row first: two blocks by the same person at once count one after the other.
            try await db.run("SELECT id FROM accounts WHERE id = \(blocker) FOR UPDATE", log)
            let listed = try await db.scalar("SELECT COUNT(*) FROM blocks WHERE blocker_id = \(blocker)", log, as: Int64.self) ?? 0
            let present = try await db.scalar(
                "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked))", log, as: Bool.self) ?? false
            guard present || listed < Int64(limit) else { return false }
            try await db.run(
                "INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(blocker), \(blocked), \(now)) ON CONFLICT DO NOTHING", log)
            try await db.run(
                """
                UPDATE members SET request = 'declined' WHERE account_id = \(blocker) AND request = 'pending' AND conversation_id IN (
                    SELECT conversation_id FROM members WHERE account_id = \(blocked))
                """, log)
            return true
        }
    }

    public func unblock(_ blocked: Int64, by blocker: Int64) async throws {
        try await transaction("block") { db, log in
            try await db.run("DELETE FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked)", log)
        }
    }

    public func blockedAccounts(by blocker: Int64) async throws -> [BlockedEntry] {
        try await read { db, log in
            try await db.rows("""
                SELECT b.blocked_id, a.display_name FROM blocks b JOIN accounts a ON a.id = b.blocked_id
                WHERE b.blocker_id = \(blocker) ORDER BY b.created_at, b.blocked_id
                """, log)
                .map { BlockedEntry(accountID: try $0.get("blocked_id"), displayName: try $0.get("display_name")) }
        }
    }

    public func hasBlocked(_ blocker: Int64, _ blocked: Int64) async throws -> Bool {
        try await read { db, log in
            try await db.scalar(
                "SELECT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked))", log, as: Bool.self) ?? false
        }
    }

    public func blockPartners(of accountID: Int64) async throws -> Set<Int64> {
        let partners = PostgresStatements.BlockPartners(accountID: accountID)
        return try await read { db, log in Set(try await db.rows(partners, log)) }
    }
}
