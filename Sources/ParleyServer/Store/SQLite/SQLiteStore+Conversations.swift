import Foundation
import GRDB

extension SQLiteStore {
    public func createConversation(
        kind: ConversationRecord.Kind, creatorID: Int64, memberIDs: [Int64], request: RequestState?, now: Int64
    ) async throws -> (conversation: ConversationRecord, created: Bool) {
        try await write("conversation") { db in
            var directKey: String?
            if kind == .direct, let other = memberIDs.first {
                directKey = "\(min(creatorID, other)):\(max(creatorID, other))"
                if let existing = try Row.fetchOne(
                    db, sql: "SELECT * FROM conversations WHERE direct_key = ? AND deleted_at IS NULL", arguments: [directKey])
                {
                    return (Self.conversationRecord(existing), false)
                }
                try db.execute(sql: "DELETE FROM conversations WHERE direct_key = ?", arguments: [directKey])
            }
            try db.execute(
                sql: "INSERT INTO conversations (kind, creator_id, direct_key, created_at) VALUES (?, ?, ?, ?)",
                arguments: [kind.rawValue, creatorID, directKey, now])
            let id = db.lastInsertedRowID
            let memberStatus = kind == .direct ? MemberStatus.active : .invited
            for (account, status) in [(creatorID, MemberStatus.active)] + memberIDs.map({ ($0, memberStatus) }) {
                let answer = kind == .direct && account != creatorID ? request?.rawValue : nil
                try db.execute(
                    sql: "INSERT INTO members (conversation_id, account_id, status, joined_at, request) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, account, status.rawValue, now, answer])
            }
            let record = ConversationRecord(id: id, kind: kind, creatorID: creatorID, createdAt: now)
            return (record, true)
        }
    }

    static func conversationRecord(_ row: Row) -> ConversationRecord {
        ConversationRecord(
            id: row["id"], kind: ConversationRecord.Kind(rawValue: row["kind"]) ?? .group,
            creatorID: row["creator_id"], createdAt: row["created_at"])
    }

    public func conversation(id: Int64) async throws -> ConversationRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM conversations WHERE id = ? AND deleted_at IS NULL", arguments: [id])
                .map(Self.conversationRecord)
        }
    }

    public func memberStatus(conversationID: Int64, accountID: Int64) async throws -> MemberStatus? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT status FROM members WHERE conversation_id = ? AND account_id = ?",
                arguments: [conversationID, accountID]
            ).flatMap(MemberStatus.init(rawValue:))
        }
    }

    public func activeMemberIDs(conversationID: Int64) async throws -> [Int64] {
        try await read { db in
            try Int64.fetchAll(
                db, sql: "SELECT account_id FROM members WHERE conversation_id = ? AND status = 'active' ORDER BY account_id",
                arguments: [conversationID])
        }
    }

    public func activeMemberDevices(conversationID: Int64) async throws -> [(accountID: Int64, deviceID: UInt32?)] {
        try await read { db in try Self.activeMemberDevices(db, conversationID: conversationID) }
    }

    /// Every device of every active member of a conversation that is not deleted, on `db`.
    static func activeMemberDevices(_ db: Database, conversationID: Int64) throws -> [MemberDevice] {
        let statement = try db.cachedStatement(sql: """
            SELECT m.account_id, d.device_id FROM members m
            JOIN conversations c ON c.id = m.conversation_id AND c.deleted_at IS NULL
            LEFT JOIN devices d ON d.account_id = m.account_id
            WHERE m.conversation_id = ? AND m.status = 'active'
            """)
        return try Row.fetchAll(statement, arguments: [conversationID]).map { row in
            (row["account_id"] as Int64, (row["device_id"] as Int64?).map { UInt32($0) })
        }
    }

    public func conversations(accountID: Int64) async throws -> [ConversationSummary] {
        try await read { db in try Self.summaries(db, accountID: accountID, only: nil) }
    }

    public func conversation(id: Int64, accountID: Int64) async throws -> ConversationSummary? {
        try await read { db in try Self.summaries(db, accountID: accountID, only: id).first }
    }

    /// The account's active conversations (or only the one `only` names), as `conversations(accountID:)` lists them.
    private static func summaries(_ db: Database, accountID: Int64, only conversationID: Int64?) throws -> [ConversationSummary] {
        var arguments: StatementArguments = [accountID, accountID, accountID, accountID]
        if let conversationID { arguments += [conversationID] }
        // What someone the account blocked sends reaches it not at all: neither counted unread nor moving the
        // conversation up the list (which would tell the account they are still writing).
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.*, m.last_read_at, m.request,
                    (SELECT MAX(created_at) FROM messages WHERE conversation_id = c.id AND directed = 0
                        AND sender_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = ?)) AS last_message_at,
                    (SELECT COUNT(*) FROM (SELECT 1 FROM messages WHERE conversation_id = c.id AND sender_id != ?
                        AND sender_id NOT IN (SELECT blocked_id FROM blocks WHERE blocker_id = ?)
                        AND created_at > m.last_read_at AND created_at >= m.joined_at AND deleted_at IS NULL AND directed = 0 LIMIT \(unreadCountLimit))) AS unread
                FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE m.account_id = ? AND m.status = 'active' AND m.request IS NOT 'declined' AND c.deleted_at IS NULL
                \(conversationID == nil ? "" : "AND c.id = ?")
                ORDER BY COALESCE(last_message_at, c.created_at) DESC
                """,
            arguments: arguments)
        return try rows.map { row in
            let id: Int64 = row["id"]
            let members = try Int64.fetchAll(
                db, sql: "SELECT account_id FROM members WHERE conversation_id = ? AND status = 'active' ORDER BY account_id",
                arguments: [id])
            return ConversationSummary(
                conversation: Self.conversationRecord(row), memberIDs: members, unreadCount: row["unread"],
                lastMessageAt: row["last_message_at"], request: (row["request"] as String?).flatMap(RequestState.init(rawValue:)))
        }
    }

    public func directConversation(between first: Int64, and second: Int64) async throws -> ConversationRecord? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM conversations WHERE direct_key = ? AND deleted_at IS NULL",
                arguments: ["\(min(first, second)):\(max(first, second))"]
            ).map(Self.conversationRecord)
        }
    }
}
