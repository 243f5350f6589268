import Foundation
import PostgresNIO

extension PostgresStore {
    public func createInvite(codeHash: [UInt8], note: String, uses: Int, expiresAt: Int64, now: Int64) async throws -> InviteRecord {
        try await transaction("invite") { db, log in
            guard let id = try await db.scalar(
                """
                INSERT INTO invites (code_hash, note, uses_left, expires_at, created_at)
                VALUES (\(ByteBuffer(bytes: codeHash)), \(note), \(Int64(uses)), \(expiresAt), \(now)) RETURNING id
                """, log, as: Int64.self)
            else { throw StoreError.unavailable("invite insert returned no id") }
            return InviteRecord(id: id, note: note, usesLeft: uses, used: 0, expiresAt: expiresAt, createdAt: now, revokedAt: nil)
        }
    }

    public func invites() async throws -> [InviteRecord] {
        try await read { db, log in
            try await db.rows("SELECT * FROM invites ORDER BY id DESC", log).map { row in
                InviteRecord(
                    id: try row.get("id"), note: try row.get("note"), usesLeft: Int(try row.get("uses_left", as: Int64.self)),
                    used: Int(try row.get("used", as: Int64.self)), expiresAt: try row.get("expires_at"),
                    createdAt: try row.get("created_at"), revokedAt: try row.get("revoked_at"))
            }
        }
    }

    public func revokeInvite(id: Int64, now: Int64) async throws -> Bool {
        try await transaction("invite") { db, log in
            try await db.scalar(
                "UPDATE invites SET revoked_at = \(now) WHERE id = \(id) AND revoked_at IS NULL RETURNING id", log, as: Int64.self) != nil
        }
    }

    public func usableInvite(codeHash: [UInt8], now: Int64) async throws -> Int64? {
        try await read { db, log in
            try await db.scalar(
                """
                SELECT id FROM invites WHERE code_hash = \(ByteBuffer(bytes: codeHash)) AND uses_left > 0 AND expires_at > \(now)
                    AND revoked_at IS NULL
                """, log, as: Int64.self)
        }
    }

    public func holdInvite(_ inviteID: Int64, for email: String) async throws {
        try await transaction("invite") { db, log in
            try await db.run(
                """
                INSERT INTO held_invites (email, invite_id) VALUES (\(email), \(inviteID))
                ON CONFLICT (email) DO UPDATE SET invite_id = excluded.invite_id
                """, log)
        }
    }

    public func activateAccount(email: String, spendingHeldInviteAt now: Int64) async throws -> Bool {
        try await transaction("account") { db, log in
            // The invite row is locked by the UPDATE: two registrations spending its last use run one after the other.
            guard try await db.scalar(
                """
                UPDATE invites SET uses_left = uses_left - 1, used = used + 1
                WHERE id = (SELECT invite_id FROM held_invites WHERE email = \(email)) AND uses_left > 0 AND expires_at > \(now)
                    AND revoked_at IS NULL
                RETURNING id
                """, log, as: Int64.self) != nil
            else { return false }
            try await db.run("DELETE FROM held_invites WHERE email = \(email)", log)
            try await db.run("UPDATE accounts SET active = TRUE WHERE email = \(email)", log)
            try await db.run("DELETE FROM verifications WHERE email = \(email)", log)
            return true
        }
    }
}
