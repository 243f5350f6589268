import Foundation
import GRDB

extension SQLiteStore {
    static func metadata(_ row: Row) -> MessageMetadata {
        MessageMetadata(
            id: row["id"], conversationID: row["conversation_id"], senderID: row["sender_id"], timestamp: row["created_at"],
            kind: row["kind"], deletedAt: row["deleted_at"], pinnedAt: row["pinned_at"])
    }

    public func messageMetadata(id: Int64) async throws -> MessageMetadata? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM messages WHERE id = ?", arguments: [id]).map(Self.metadata) }
    }

    public func markRead(conversationID: Int64, accountID: Int64, upTo timestamp: Int64) async throws -> Int64 {
        try await write("read mark") { db in
            try db.execute(
                sql: "UPDATE members SET last_read_at = MAX(last_read_at, ?) WHERE conversation_id = ? AND account_id = ?",
                arguments: [timestamp, conversationID, accountID])
            return try Int64.fetchOne(
                db, sql: "SELECT last_read_at FROM members WHERE conversation_id = ? AND account_id = ?",
                arguments: [conversationID, accountID]) ?? 0
        }
    }

    public func latestTimestamp(conversationID: Int64) async throws -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(created_at) FROM messages WHERE conversation_id = ?", arguments: [conversationID]) ?? 0
        }
    }

    public func toggleReaction(messageID: Int64, accountID: Int64, emoji: String, now: Int64) async throws -> Bool {
        try await write("reaction") { db in
            try db.execute(
                sql: "DELETE FROM reactions WHERE message_id = ? AND account_id = ? AND emoji = ?",
                arguments: [messageID, accountID, emoji])
            if db.changesCount > 0 { return false }
            try db.execute(
                sql: "INSERT INTO reactions (message_id, account_id, emoji, created_at) VALUES (?, ?, ?, ?)",
                arguments: [messageID, accountID, emoji, now])
            return true
        }
    }

    public func reactions(messageID: Int64) async throws -> [(Int64, String)] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT account_id, emoji FROM reactions WHERE message_id = ? ORDER BY created_at, account_id",
                arguments: [messageID]
            ).map { ($0["account_id"], $0["emoji"]) }
        }
    }

    public func deliveredTo(messageID: Int64) async throws -> [Int64] {
        try await read { db in
            try Int64.fetchAll(db, sql: "SELECT account_id FROM deliveries WHERE message_id = ? ORDER BY account_id", arguments: [messageID])
        }
    }

    public func storedFor(messageID: Int64) async throws -> [Int64] {
        try await read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT account_id FROM deliveries WHERE message_id = ?1
                    UNION SELECT e.account_id FROM envelopes e JOIN messages m ON m.id = e.message_id
                        WHERE e.message_id = ?1 AND e.account_id <> m.sender_id
                    ORDER BY 1
                    """,
                arguments: [messageID])
        }
    }

    public func readMarks(conversationID: Int64) async throws -> [ReadMark] {
        try await read { db in
            try Row.fetchAll(
                db, sql: """
                    SELECT account_id, last_read_at, joined_at FROM members
                    WHERE conversation_id = ? AND status = 'active' AND request IS NULL ORDER BY account_id
                    """,
                arguments: [conversationID]
            ).map { ReadMark(accountID: $0["account_id"], upTo: $0["last_read_at"], joinedAt: $0["joined_at"]) }
        }
    }

    public func setPinned(messageID: Int64, by accountID: Int64?, limit: Int, now: Int64) async throws -> Bool {
        try await write("pin") { db in
            if accountID != nil {
                // From the partial index messages_pinned: the conversation's pins, not its messages.
                let others = try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM messages WHERE pinned_at IS NOT NULL AND id != ?1
                            AND conversation_id = (SELECT conversation_id FROM messages WHERE id = ?1)
                        """,
                    arguments: [messageID]) ?? 0
                guard others < limit else { return false }
            }
            try db.execute(
                sql: "UPDATE messages SET pinned_at = ?, pinned_by = ? WHERE id = ?",
                arguments: [accountID == nil ? nil : now, accountID, messageID])
            return true
        }
    }

    public func pinnedMessages(conversationID: Int64) async throws -> [MessageMetadata] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM messages WHERE conversation_id = ? AND pinned_at IS NOT NULL AND deleted_at IS NULL ORDER BY pinned_at",
                arguments: [conversationID]
            ).map(Self.metadata)
        }
    }

    public func softDelete(messageID: Int64, now: Int64) async throws {
        try await write("message") { db in
            try db.execute(
                sql: "UPDATE messages SET deleted_at = ?, pinned_at = NULL, pinned_by = NULL WHERE id = ? AND deleted_at IS NULL",
                arguments: [now, messageID])
            try db.execute(sql: "DELETE FROM envelopes WHERE message_id = ?", arguments: [messageID])
            try db.execute(sql: "DELETE FROM reactions WHERE message_id = ?", arguments: [messageID])
        }
    }

    public func deletedMessages(accountID: Int64, since: Int64) async throws -> [MessageMetadata] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT m.* FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                    WHERE mb.account_id = ? AND mb.status = 'active' AND m.deleted_at > ? ORDER BY m.deleted_at LIMIT 1000
                    """,
                arguments: [accountID, since]
            ).map(Self.metadata)
        }
    }

    public func searchMessages(accountID: Int64, query: MessageQuery) async throws -> MessageSearch {
        try await read { db in
            var sql = """
                SELECT m.* FROM messages m JOIN members mb ON mb.conversation_id = m.conversation_id
                WHERE mb.account_id = ? AND mb.status = 'active' AND m.deleted_at IS NULL AND m.directed = 0
                """
            var arguments: StatementArguments = [accountID]
            if let value = query.conversationID { sql += " AND m.conversation_id = ?"; arguments += [value] }
            if let value = query.senderID { sql += " AND m.sender_id = ?"; arguments += [value] }
            if let value = query.kind { sql += " AND m.kind = ?"; arguments += [value] }
            if let value = query.from { sql += " AND m.created_at >= ?"; arguments += [value] }
            if let value = query.to { sql += " AND m.created_at <= ?"; arguments += [value] }
            sql += " ORDER BY m.created_at DESC LIMIT ?"
            arguments += [query.limit]
            let rows = try SQLiteWorkBudget.run(db, steps: MessageSearch.sqliteSteps) {
                try Row.fetchAll(db, sql: sql, arguments: arguments)
            }
            return rows.map { .found($0.map(Self.metadata)) } ?? .tooBroad
        }
    }

    public func setForwardedFrom(messageID: Int64, source: Int64) async throws {
        try await write("message") { db in
            try db.execute(sql: "UPDATE messages SET forwarded_from = ? WHERE id = ?", arguments: [source, messageID])
        }
    }
}
