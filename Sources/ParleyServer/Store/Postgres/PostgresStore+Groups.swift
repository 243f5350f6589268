import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    public func setMemberStatus(conversationID: Int64, accountID: Int64, status: MemberStatus, now: Int64) async throws {
        try await transaction("membership") { db, log in
            try await db.run(
                """
                INSERT INTO members (conversation_id, account_id, status, joined_at)
                VALUES (\(conversationID), \(accountID), \(status.rawValue), \(now))
                ON CONFLICT (conversation_id, account_id) DO UPDATE SET status = excluded.status, joined_at = excluded.joined_at
                """, log)
        }
    }

    public func leaveGroup(conversationID: Int64, accountID: Int64, now: Int64) async throws -> GroupDeparture {
        try await transaction("membership") { db, log in
            // The conversation's row is the lock: two of its members leaving at once wait for each other here, so
            // the second sees the first gone and the rights never pass to someone who left.
            let creator = try await db.scalar(
                "SELECT creator_id FROM conversations WHERE id = \(conversationID) FOR UPDATE", log, as: Int64.self)
            try await db.run(
                """
                UPDATE members SET status = 'left', joined_at = \(now)
                WHERE conversation_id = \(conversationID) AND account_id = \(accountID)
                """, log)
            guard creator == accountID else { return .left }
            if let heir = try await Self.groupHeir(db, log, conversationID) {
                try await db.run("UPDATE conversations SET creator_id = \(heir) WHERE id = \(conversationID)", log)
                return .handedOver(heir: heir)
            }
            try await Self.markDeleted(db, log, conversationID, now: now)
            return .deleted
        }
    }

    /// Who takes a group's creator rights (see SQLiteStore's).
    static func groupHeir(_ db: PostgresConnection, _ log: Logger, _ conversationID: Int64) async throws -> Int64? {
        try await db.scalar(
            """
            SELECT account_id FROM members WHERE conversation_id = \(conversationID) AND status = 'active'
            ORDER BY joined_at, account_id LIMIT 1
            """, log, as: Int64.self)
    }

    public func invite(conversationID: Int64, accountID: Int64, seats: Int, now: Int64) async throws -> Bool {
        try await transaction("membership") { db, log in
            // The conversation's row is the lock: two invitations to one group wait for each other here.
            try await db.run("SELECT id FROM conversations WHERE id = \(conversationID) FOR UPDATE", log)
            let taken = try await db.scalar(
                "SELECT COUNT(*) FROM members WHERE conversation_id = \(conversationID) AND status IN ('active', 'invited')",
                log, as: Int64.self) ?? 0
            guard taken < seats else { return false }
            try await db.run(
                """
                INSERT INTO members (conversation_id, account_id, status, joined_at)
                VALUES (\(conversationID), \(accountID), 'invited', \(now))
                ON CONFLICT (conversation_id, account_id) DO UPDATE SET status = excluded.status, joined_at = excluded.joined_at
                """, log)
            return true
        }
    }

    public func deleteMember(conversationID: Int64, accountID: Int64) async throws {
        try await transaction("membership") { db, log in
            try await db.run("DELETE FROM members WHERE conversation_id = \(conversationID) AND account_id = \(accountID)", log)
        }
    }

    public func invitations(accountID: Int64) async throws -> [ConversationRecord] {
        try await read { db, log in
            try await db.rows(
                """
                SELECT c.* FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE m.account_id = \(accountID) AND m.status = 'invited' AND c.deleted_at IS NULL ORDER BY c.id
                """, log
            ).map(Self.conversationRecord)
        }
    }

    public func pendingInvitations(accountID: Int64, creatorID: Int64) async throws -> Int {
        try await read { db, log in
            let count = try await db.scalar(
                """
                SELECT COUNT(*) FROM conversations c JOIN members m ON m.conversation_id = c.id
                WHERE m.account_id = \(accountID) AND m.status = 'invited' AND c.creator_id = \(creatorID) AND c.deleted_at IS NULL
                """, log, as: Int64.self)
            return Int(count ?? 0)
        }
    }

    public func invitationWithdrawn(invitee: Int64, creatorID: Int64, since: Int64) async throws -> Bool {
        try await read { db, log in
            try await db.scalar(
                """
                SELECT EXISTS (SELECT 1 FROM members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.account_id = \(invitee) AND c.creator_id = \(creatorID) AND c.kind = 'group'
                        AND ((m.status = 'invited' AND c.deleted_at >= \(since)) OR (m.status = 'withdrawn' AND m.joined_at >= \(since))))
                """, log, as: Bool.self) ?? false
        }
    }

    public func activeGroups(accountID: Int64) async throws -> Int {
        try await read { db, log in
            let count = try await db.scalar(
                """
                SELECT COUNT(*) FROM members m JOIN conversations c ON c.id = m.conversation_id
                WHERE m.account_id = \(accountID) AND m.status = 'active' AND c.kind = 'group' AND c.deleted_at IS NULL
                """, log, as: Int64.self)
            return Int(count ?? 0)
        }
    }

    public func deleteConversation(conversationID: Int64, now: Int64) async throws {
        try await transaction("conversation") { db, log in try await Self.markDeleted(db, log, conversationID, now: now) }
    }

    static func markDeleted(_ db: PostgresConnection, _ log: Logger, _ conversationID: Int64, now: Int64) async throws {
        try await db.run("UPDATE conversations SET deleted_at = \(now) WHERE id = \(conversationID)", log)
        // Nobody can read a deleted group's picture (see SQLiteStore+Groups.swift).
        try await db.run("DELETE FROM avatars WHERE owner_kind = 'group' AND owner_id = \(conversationID)", log)
        try await db.run(
            "DELETE FROM envelopes WHERE message_id IN (SELECT id FROM messages WHERE conversation_id = \(conversationID))", log)
    }

    public func contactIDs(accountID: Int64) async throws -> [Int64] {
        try await read { db, log in try await Self.contactIDs(db, log, accountID: accountID) }
    }

    public func areContacts(_ a: Int64, _ b: Int64) async throws -> Bool {
        try await read { db, log in
            try await db.scalar(
                """
                SELECT EXISTS (SELECT 1 FROM contacts WHERE account_id = \(a) AND contact_id = \(b))
                    AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = \(a) AND blocked_id = \(b)) OR (blocker_id = \(b) AND blocked_id = \(a)))
                """, log, as: Bool.self) ?? false
        }
    }

    /// From the `contacts` table the triggers keep (PostgresContactsSchema): one row per contact, blocks applied here.
    static func contactIDs(_ db: PostgresConnection, _ log: Logger, accountID: Int64) async throws -> [Int64] {
        try await db.column(
            """
            SELECT contact_id FROM contacts
            WHERE account_id = \(accountID)
                AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(accountID) AND blocked_id = contact_id)
                AND NOT EXISTS (SELECT 1 FROM blocks WHERE blocker_id = contact_id AND blocked_id = \(accountID))
            ORDER BY contact_id
            """, log, as: Int64.self)
    }
}
