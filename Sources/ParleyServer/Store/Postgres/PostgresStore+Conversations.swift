import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    public func createConversation(
        kind: ConversationRecord.Kind, creatorID: Int64, memberIDs: [Int64], request: RequestState?, now: Int64
    ) async throws -> (conversation: ConversationRecord, created: Bool) {
        // Two people opening the same direct conversation at once: the second insert hits the unique
        // direct key and is retried, where it finds and returns the first one.
        try await transaction("conversation", retryOnConflict: true) { db, log in
            var directKey: String?
            if kind == .direct, let other = memberIDs.first {
                let key = "\(min(creatorID, other)):\(max(creatorID, other))"
                directKey = key
                if let existing = try await db.row(
                    "SELECT * FROM conversations WHERE direct_key = \(key) AND deleted_at IS NULL", log)
                {
                    return (try Self.conversationRecord(existing), false)
                }
                // Only a deleted one frees the key. (A bare DELETE by key, as on SQLite's single writer,
                // would here remove a live conversation another transaction committed since the SELECT.)
                try await db.run("DELETE FROM conversations WHERE direct_key = \(key) AND deleted_at IS NOT NULL", log)
            }
            guard let id = try await db.scalar(
                """
                INSERT INTO conversations (kind, creator_id, direct_key, created_at)
                VALUES (\(kind.rawValue), \(creatorID), \(directKey), \(now)) RETURNING id
                """, log, as: Int64.self)
            else { throw StoreError.unavailable("conversation insert returned no id") }
            let memberStatus = kind == .direct ? MemberStatus.active : .invited
            for (account, status) in [(creatorID, MemberStatus.active)] + memberIDs.map({ ($0, memberStatus) }) {
                let answer = kind == .direct && account != creatorID ? request?.rawValue : nil
                try await db.run(
                    """
                    INSERT INTO members (conversation_id, account_id, status, joined_at, request)
                    VALUES (\(id), \(account), \(status.rawValue), \(now), \(answer))
                    """, log)
            }
            return (ConversationRecord(id: id, kind: kind, creatorID: creatorID, createdAt: now), true)
        }
    }

    static func conversationRecord(_ row: PostgresRandomAccessRow) throws -> ConversationRecord {
        ConversationRecord(
            id: try row.get("id"), kind: ConversationRecord.Kind(rawValue: try row.get("kind")) ?? .group,
            creatorID: try row.get("creator_id"), createdAt: try row.get("created_at"))
    }

    public func conversation(id: Int64) async throws -> ConversationRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM conversations WHERE id = \(id) AND deleted_at IS NULL", log).map(Self.conversationRecord)
        }
    }

    public func memberStatus(conversationID: Int64, accountID: Int64) async throws -> MemberStatus? {
        try await read { db, log in
            try await db.scalar(
                "SELECT status FROM members WHERE conversation_id = \(conversationID) AND account_id = \(accountID)", log, as: String.self
            ).flatMap(MemberStatus.init(rawValue:))
        }
    }

    public func activeMemberIDs(conversationID: Int64) async throws -> [Int64] {
        try await read { db, log in
            try await db.column(
                "SELECT account_id FROM members WHERE conversation_id = \(conversationID) AND status = 'active' ORDER BY account_id",
                log, as: Int64.self)
        }
    }

    public func activeMemberDevices(conversationID: Int64) async throws -> [(accountID: Int64, deviceID: UInt32?)] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT m.account_id, d.device_id FROM members m
                JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
                LEFT JOIN devices d ON d.account_id = m.account_id
                WHERE m.conversation_id = \(conversationID) AND m.status = 'active'
                ORDER BY m.account_id, d.device_id
                """, log
            ).map { row in
                (try row.get("account_id", as: Int64.self), try row.get("device_id", as: Int64?.self).map { UInt32(truncatingIfNeeded: $0) })
            }
        }
    }

    public func conversations(accountID: Int64) async throws -> [ConversationSummary] {
        try await read { db, log in try await Self.summaries(db, log, accountID: accountID, only: nil) }
    }

    public func conversation(id: Int64, accountID: Int64) async throws -> ConversationSummary? {
        try await read { db, log in try await Self.summaries(db, log, accountID: accountID, only: id).first }
    }

    /// The account's active conversations (or only the one `only` names), as `conversations(accountID:)` lists them.
    private static func summaries(
        _ db: PostgresConnection, _ log: Logger, accountID: Int64, only conversationID: Int64?
    ) async throws -> [ConversationSummary] {
        // Without `only`, -1: no conversation has it, so the filter `c.id = -1 OR -1 = -1` passes every one.
        let only = conversationID ?? -1
        let rows = try await db.rows(
            """
            SELECT * FROM (
                SELECT c.*, m.last_read_at, m.request,
                    (SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id AND NOT directed
                        AND sender_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = \(accountID))) AS last_message_at,
                    (SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE conversation_id = c.id AND sender_id != \(accountID)
                        AND sender_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = \(accountID))
                        AND created_at > m.last_read_at AND created_at >= m.joined_at AND deleted_at IS NULL AND NOT directed LIMIT \(unreadCountLimit)) u) AS unread
                FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE m.account_id = \(accountID) AND m.status = 'active' AND m.request IS DISTINCT FROM 'declined' AND c.deleted_at IS NULL
                    AND (c.id = \(only) OR \(only) = -1)
            ) s ORDER BY COALESCE(last_message_at, created_at) DESC
            """, log)
        // Every conversation's members in one query, not one query per conversation.
        var members: [Int64: [Int64]] = [:]
        let memberRows = try await db.query(
            """
            SELECT o.conversation_id, array_agg(o.account_id ORDER BY o.account_id)
            FROM members m JOIN members o ON o.conversation_id = m.conversation_id
            WHERE m.account_id = \(accountID) AND m.status = 'active' AND o.status = 'active' AND (o.conversation_id = \(only) OR \(only) = -1)
            GROUP BY o.conversation_id
            """, logger: log)
        for try await (conversation, ids) in memberRows.decode((Int64, [Int64]).self) { members[conversation] = ids }
        return try rows.map { row in
            let id: Int64 = try row.get("id")
            return ConversationSummary(
                conversation: try Self.conversationRecord(row), memberIDs: members[id] ?? [],
                unreadCount: Int(try row.get("unread", as: Int64.self)), lastMessageAt: try row.get("last_message_at"),
                request: try row.get("request", as: String?.self).flatMap(RequestState.init(rawValue:)))
        }
    }

    public func directConversation(between first: Int64, and second: Int64) async throws -> ConversationRecord? {
        try await read { db, log in
            let key = "\(min(first, second)):\(max(first, second))"
            return try await db.row("SELECT * FROM conversations WHERE direct_key = \(key) AND deleted_at IS NULL", log)
                .map(Self.conversationRecord)
        }
    }
}
