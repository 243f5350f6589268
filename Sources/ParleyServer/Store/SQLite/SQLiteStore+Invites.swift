import Foundation
import GRDB

extension SQLiteStore {
    public func createInvite(codeHash: [UInt8], note: String, uses: Int, expiresAt: Int64, now: Int64) async throws -> InviteRecord {
        try await write("invite") { db in
            try db.execute(
                sql: "INSERT INTO invites (code_hash, note, uses_left, expires_at, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [Data(codeHash), note, uses, expiresAt, now])
            return InviteRecord(id: db.lastInsertedRowID, note: note, usesLeft: uses, used: 0, expiresAt: expiresAt, createdAt: now, revokedAt: nil)
        }
    }

    public func invites() async throws -> [InviteRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM invites ORDER BY id DESC").map { row in
                InviteRecord(
                    id: row["id"], note: row["note"], usesLeft: row["uses_left"], used: row["used"], expiresAt: row["expires_at"],
                    createdAt: row["created_at"], revokedAt: row["revoked_at"])
            }
        }
    }

    public func revokeInvite(id: Int64, now: Int64) async throws -> Bool {
        try await write("invite") { db in
            try db.execute(sql: "UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", arguments: [now, id])
            return db.changesCount > 0
        }
    }

    public func usableInvite(codeHash: [UInt8], now: Int64) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(
                db, sql: "SELECT id FROM invites WHERE code_hash = ? AND uses_left > 0 AND expires_at > ? AND revoked_at IS NULL",
                arguments: [Data(codeHash), now])
        }
    }

    public func holdInvite(_ inviteID: Int64, for email: String) async throws {
        try await write("invite") { db in
            try db.execute(
                sql: "INSERT INTO held_invites (email, invite_id) VALUES (?, ?) ON CONFLICT (email) DO UPDATE SET invite_id = excluded.invite_id",
                arguments: [email, inviteID])
        }
    }

    public func activateAccount(email: String, spendingHeldInviteAt now: Int64) async throws -> Bool {
        try await write("account") { db in
            try db.execute(
                sql: """
                    UPDATE invites SET uses_left = uses_left - 1, used = used + 1
                    WHERE id = (SELECT invite_id FROM held_invites WHERE email = ?) AND uses_left > 0 AND expires_at > ? AND revoked_at IS NULL
                    """,
                arguments: [email, now])
            guard db.changesCount == 1 else { return false }
            try db.execute(sql: "DELETE FROM held_invites WHERE email = ?", arguments: [email])
            try db.execute(sql: "UPDATE accounts SET active = 1 WHERE email = ?", arguments: [email])
            try db.execute(sql: "DELETE FROM verifications WHERE email = ?", arguments: [email])
            return true
        }
    }
}
