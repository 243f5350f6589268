import Foundation
import GRDB

extension SQLiteStore {
    public func setMemberStatus(conversationID: Int64, accountID: Int64, status: MemberStatus, now: Int64) async throws {
        try await write("membership") { db in
            try db.execute(
                sql: """
                    INSERT INTO members (conversation_id, account_id, status, joined_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (conversation_id, account_id) DO UPDATE SET status = excluded.status, joined_at = excluded.joined_at
                    """,
                arguments: [conversationID, accountID, status.rawValue, now])
        }
    }

    public func leaveGroup(conversationID: Int64, accountID: Int64, now: Int64) async throws -> GroupDeparture {
        try await write("membership") { db in
            try db.execute(
                sql: "UPDATE members SET status = 'left', joined_at = ? WHERE conversation_id = ? AND account_id = ?",
                arguments: [now, conversationID, accountID])
            let creator = try Int64.fetchOne(db, sql: "SELECT creator_id FROM conversations WHERE id = ?", arguments: [conversationID])
            guard creator == accountID else { return .left }
            if let heir = try Self.groupHeir(db, conversationID) {
                try db.execute(sql: "UPDATE conversations SET creator_id = ? WHERE id = ?", arguments: [heir, conversationID])
                return .handedOver(heir: heir)
            }
            try Self.markDeleted(db, conversationID, now: now)
            return .deleted
        }
    }

    /// Who takes a group's creator rights (`GroupDeparture.handedOver`); nil when no active member is left.
    static func groupHeir(_ db: Database, _ conversationID: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT account_id FROM members WHERE conversation_id = ? AND status = 'active'
                ORDER BY joined_at, account_id LIMIT 1
                """,
            arguments: [conversationID])
    }

    public func invite(conversationID: Int64, accountID: Int64, seats: Int, now: Int64) async throws -> Bool {
        try await write("membership") { db in
            let taken = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM members WHERE conversation_id = ? AND status IN ('active', 'invited')",
                arguments: [conversationID]) ?? 0
            guard taken < seats else { return false }
            try db.execute(
                sql: """
                    INSERT INTO members (conversation_id, account_id, status, joined_at) VALUES (?, ?, 'invited', ?)
                    ON CONFLICT (conversation_id, account_id) DO UPDATE SET status = excluded.status, joined_at = excluded.joined_at
                    """,
                arguments: [conversationID, accountID, now])
            return true
        }
    }

    public func deleteMember(conversationID: Int64, accountID: Int64) async throws {
        try await write("membership") { db in
            try db.execute(sql: "DELETE FROM members WHERE conversation_id = ? AND account_id = ?", arguments: [conversationID, accountID])
        }
    }

    public func invitations(accountID: Int64) async throws -> [ConversationRecord] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.* FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE m.account_id = ? AND m.status = 'invited' AND c.deleted_at IS NULL ORDER BY c.id
                    """,
                arguments: [accountID]
            ).map(Self.conversationRecord)
        }
    }

    public func pendingInvitations(accountID: Int64, creatorID: Int64) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM conversations c JOIN members m ON m.conversation_id = c.id
                    WHERE m.account_id = ? AND m.status = 'invited' AND c.creator_id = ? AND c.deleted_at IS NULL
                    """,
                arguments: [accountID, creatorID]) ?? 0
        }
    }

    public func activeGroups(accountID: Int64) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.account_id = ? AND m.status = 'active' AND c.kind = 'group' AND c.deleted_at IS NULL
                    """,
                arguments: [accountID]) ?? 0
        }
    }

    public func invitationWithdrawn(invitee: Int64, creatorID: Int64, since: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM members m JOIN conversations c ON c.id = m.conversation_id
                        WHERE m.account_id = ?1 AND c.creator_id = ?2 AND c.kind = 'group'
                            AND ((m.status = 'invited' AND c.deleted_at >= ?3) OR (m.status = 'withdrawn' AND m.joined_at >= ?3)))
                    """,
                arguments: [invitee, creatorID, since]) ?? false
        }
    }

    public func deleteConversation(conversationID: Int64, now: Int64) async throws {
        try await write("conversation") { db in try Self.markDeleted(db, conversationID, now: now) }
    }

    static func markDeleted(_ db: Database, _ conversationID: Int64, now: Int64) throws {
        try db.execute(sql: "UPDATE conversations SET deleted_at = ? WHERE id = ?", arguments: [now, conversationID])
        // Nobody can read a deleted group's picture: kept, it would be up to 256 KiB the sender never gets back.
        try db.execute(sql: "DELETE FROM avatars WHERE owner_kind = 'group' AND owner_id = ?", arguments: [conversationID])
        try db.execute(
            sql: "DELETE FROM envelopes WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = ?)",
            arguments: [conversationID])
    }

    public func contactIDs(accountID: Int64) async throws -> [Int64] {
        try await read { db in try Self.contactIDs(db, accountID: accountID) }
    }

    public func areContacts(_ a: Int64, _ b: Int64) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM contacts WHERE account_id = ?1 AND contact_id = ?2)
                        AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1))
                    """,
                arguments: [a, b]) ?? false
        }
    }

    /// From the `contacts` table the triggers keep (SQLiteContactsSchema): one row per contact, blocks applied here.
    static func contactIDs(_ db: Database, accountID: Int64) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql: """
                SELECT contact_id FROM contacts
                WHERE account_id = ?1
                    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = contact_id)
                    AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = contact_id AND blocked_id = ?1)
                ORDER BY contact_id
                """,
            arguments: [accountID])
    }
}
