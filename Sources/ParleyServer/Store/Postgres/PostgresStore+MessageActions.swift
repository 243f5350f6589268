import Foundation
import PostgresNIO

extension PostgresStore {
    static func metadata(_ row: PostgresRandomAccessRow) throws -> MessageMetadata {
        MessageMetadata(
            id: try row.get("id"), conversationID: try row.get("conversation_id"), senderID: try row.get("sender_id"),
            timestamp: try row.get("created_at"), kind: try row.get("kind"), deletedAt: try row.get("deleted_at"),
            pinnedAt: try row.get("pinned_at"))
    }

    public func messageMetadata(id: Int64) async throws -> MessageMetadata? {
        try await read { db, log in try await db.row("SELECT * FROM messages WHERE id = \(id)", log).map(Self.metadata) }
    }

    public func markRead(conversationID: Int64, accountID: Int64, upTo timestamp: Int64) async throws -> Int64 {
        try await transaction("read mark") { db, log in
            try await db.scalar(
                """
                UPDATE members SET last_read_at = GREATEST(last_read_at, \(timestamp))
                WHERE conversation_id = \(conversationID) AND account_id = \(accountID) RETURNING last_read_at
                """, log, as: Int64.self) ?? 0
        }
    }

    public func latestTimestamp(conversationID: Int64) async throws -> Int64 {
        try await read { db, log in
            try await db.scalar("SELECT MAX(created_at) FROM messages WHERE conversation_id = \(conversationID)", log, as: Int64.self) ?? 0
        }
    }

    public func toggleReaction(messageID: Int64, accountID: Int64, emoji: String, now: Int64) async throws -> Bool {
        try await transaction("reaction") { db, log in
            let removed = try await db.row(
                "DELETE FROM reactions WHERE message_id = \(messageID) AND account_id = \(accountID) AND emoji = \(emoji) RETURNING 1", log)
            if removed != nil { return false }
            try await db.run(
                """
                INSERT INTO reactions (message_id, account_id, emoji, created_at) VALUES (\(messageID), \(accountID), \(emoji), \(now))
                ON CONFLICT DO NOTHING
                """, log)
            return true
        }
    }

    public func reactions(messageID: Int64) async throws -> [(Int64, String)] {
        try await read { db, log in
            try await db.rows(
                "SELECT account_id, emoji FROM reactions WHERE message_id = \(messageID) ORDER BY created_at, account_id", log
            ).map { (try $0.get("account_id", as: Int64.self), try $0.get("emoji", as: String.self)) }
        }
    }

    public func deliveredTo(messageID: Int64) async throws -> [Int64] {
        try await read { db, log in
            try await db.column("SELECT account_id FROM deliveries WHERE message_id = \(messageID) ORDER BY account_id", log, as: Int64.self)
        }
    }

    public func storedFor(messageID: Int64) async throws -> [Int64] {
        try await read { db, log in
            try await db.column(
                """
                SELECT account_id FROM deliveries WHERE message_id = \(messageID)
                UNION SELECT e.account_id FROM envelopes e JOIN messages m ON m.id = e.message_id
                    WHERE e.message_id = \(messageID) AND e.account_id <> m.sender_id
                ORDER BY 1
                """, log, as: Int64.self)
        }
    }

    public func readMarks(conversationID: Int64) async throws -> [ReadMark] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT account_id, last_read_at, joined_at FROM members
                WHERE conversation_id = \(conversationID) AND status = 'active' AND request IS NULL ORDER BY account_id
                """, log
            ).map {
                ReadMark(accountID: try $0.get("account_id", as: Int64.self), upTo: try $0.get("last_read_at", as: Int64.self),
                         joinedAt: try $0.get("joined_at", as: Int64.self))
            }
        }
    }

    public func setPinned(messageID: Int64, by accountID: Int64?, limit: Int, now: Int64) async throws -> Bool {
        let pinnedAt: Int64? = accountID == nil ? nil : now
        return try await transaction("pin") { db, log in
            if accountID != nil {
                // The conversation's row locked first, so two pins at once cannot both pass the count.
                try await db.run(
                    "SELECT id FROM conversations WHERE id = (SELECT conversation_id FROM messages WHERE id = \(messageID)) FOR UPDATE", log)
                let others = try await db.scalar(
                    """
                    SELECT COUNT(*) FROM messages WHERE pinned_at IS NOT NULL AND id != \(messageID)
                        AND conversation_id = (SELECT conversation_id FROM messages WHERE id = \(messageID))
                    """, log, as: Int64.self) ?? 0
                guard others < limit else { return false }
            }
            try await db.run("UPDATE messages SET pinned_at = \(pinnedAt), pinned_by = \(accountID) WHERE id = \(messageID)", log)
            return true
        }
    }

    public func pinnedMessages(conversationID: Int64) async throws -> [MessageMetadata] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT * FROM messages WHERE conversation_id = \(conversationID) AND pinned_at IS NOT NULL AND deleted_at IS NULL
                ORDER BY pinned_at
                """, log
            ).map(Self.metadata)
        }
    }

    public func softDelete(messageID: Int64, now: Int64) async throws {
        try await transaction("message") { db, log in
            try await db.run(
                "UPDATE messages SET deleted_at = \(now), pinned_at = NULL, pinned_by = NULL WHERE id = \(messageID) AND deleted_at IS NULL",
                log)
            try await db.run("DELETE FROM envelopes WHERE message_id = \(messageID)", log)
            try await db.run("DELETE FROM reactions WHERE message_id = \(messageID)", log)
        }
    }

    public func deletedMessages(accountID: Int64, since: Int64) async throws -> [MessageMetadata] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT m.* FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                WHERE mb.account_id = \(accountID) AND mb.status = 'active' AND m.deleted_at > \(since)
                ORDER BY m.deleted_at LIMIT 1000
                """, log
            ).map(Self.metadata)
        }
    }

    public func searchMessages(accountID: Int64, query: MessageQuery) async throws -> MessageSearch {
        // A transaction only so the time limit is its own (SET LOCAL): the pooled connection goes back without it.
        try await transaction("search") { db, log in
            try await db.run(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(MessageSearch.postgresMilliseconds)"), log)
            let rows = MessageSearch.postgresRows
            do {
                // The filters an index can answer (conversation, sender, time) choose the candidates, newest first and
                // at most `postgresRows` of them; the kind, which no index answers, is checked on those. Rows are read
                // lazily: a full page ends the reading early. One statement for every filter combination: an absent
                // filter is a NULL that matches all.
                let found = try await db.rows(
                    """
                    SELECT c.* FROM (
                        SELECT m.* FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                        WHERE mb.account_id = \(accountID) AND mb.status = 'active' AND m.deleted_at IS NULL AND NOT m.directed
                            AND (\(query.conversationID)::BIGINT IS NULL OR m.conversation_id = \(query.conversationID))
                            AND (\(query.senderID)::BIGINT IS NULL OR m.sender_id = \(query.senderID))
                            AND (\(query.from)::BIGINT IS NULL OR m.created_at >= \(query.from))
                            AND (\(query.to)::BIGINT IS NULL OR m.created_at <= \(query.to))
                        ORDER BY m.created_at DESC LIMIT \(rows + 1)
                    ) c
                    WHERE (\(query.kind)::TEXT IS NULL OR c.kind = \(query.kind))
                    ORDER BY c.created_at DESC LIMIT \(Self.sqlLimit(query.limit))
                    """, log)
                // A page not filled either read every candidate there is, or stopped at the bound: then the search
                // would have read more than one may, and says so rather than answer from part of the history.
                if !(Self.sqlLimit(query.limit).map { Int64(found.count) >= $0 } ?? false) {
                    let candidates = try await db.scalar(
                        """
                        SELECT count(*) FROM (
                            SELECT 1 FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                            WHERE mb.account_id = \(accountID) AND mb.status = 'active' AND m.deleted_at IS NULL AND NOT m.directed
                                AND (\(query.conversationID)::BIGINT IS NULL OR m.conversation_id = \(query.conversationID))
                                AND (\(query.senderID)::BIGINT IS NULL OR m.sender_id = \(query.senderID))
                                AND (\(query.from)::BIGINT IS NULL OR m.created_at >= \(query.from))
                                AND (\(query.to)::BIGINT IS NULL OR m.created_at <= \(query.to))
                            LIMIT \(rows + 1)
                        ) c
                        """, log, as: Int64.self) ?? 0
                    if candidates > rows { return .tooBroad }
                }
                return .found(try found.map(Self.metadata))
            } catch where Self.sqlState(error) == "57014" {  // query_canceled: the time limit, for a plan that reads past the bound
                return .tooBroad
            }
        }
    }

    public func setForwardedFrom(messageID: Int64, source: Int64) async throws {
        try await transaction("message") { db, log in
            try await db.run("UPDATE messages SET forwarded_from = \(source) WHERE id = \(messageID)", log)
        }
    }
}
