import Foundation
import GRDB

extension SQLiteStore {
    public func sweepExpired(now: Int64, policy: RetentionPolicy) async throws -> SweepReport {
        let cutoff = now - policy.timeToLive
        let abandoned = now - policy.abandonedUploadAge
        let expired = now - policy.expiredGrace
        let limit = max(1, policy.batchSize)
        // A message goes once it is past the TTL; a deleted one keeps its marker until its deletion is past the
        // TTL too, so a device away for less than the TTL still learns of it (`get_deleted_since`).
        let oldMessage = "m.created_at < ?1 AND (m.deleted_at IS NULL OR m.deleted_at < ?1)"
        let oldFile = "((f.complete = 1 AND f.created_at < ?1) OR (f.complete = 0 AND f.created_at < ?2))"
        var report = SweepReport()
        // Children before parents: each batch deletes exactly the rows it counts, and a cascade never turns one
        // small batch into an unbounded one.
        report.envelopes = try await deleteInBatches(
            "envelopes", "SELECT e.rowid FROM messages m JOIN envelopes e ON e.message_id = m.id WHERE m.created_at < ?1",
            [cutoff], limit)
        report.reactions = try await deleteInBatches(
            "reactions", "SELECT r.rowid FROM messages m JOIN reactions r ON r.message_id = m.id WHERE \(oldMessage)", [cutoff], limit)
        report.messages = try await deleteInBatches("messages", "SELECT m.rowid FROM messages m WHERE \(oldMessage)", [cutoff], limit)
        // One file after another, so at most one file at a time is partly gone (a download racing it fails its digest check).
        report.fileChunks = try await deleteInBatches(
            "file_chunks",
            "SELECT c.rowid FROM files f JOIN file_chunks c ON c.file_id = f.id WHERE \(oldFile) ORDER BY c.file_id, c.offset",
            [cutoff, abandoned], limit)
        report.files = try await deleteInBatches("files", "SELECT f.rowid FROM files f WHERE \(oldFile)", [cutoff, abandoned], limit)
        report.waypoints = try await deleteInBatches(
            "location_waypoints", "SELECT w.rowid FROM location_waypoints w WHERE w.received_at < ?1", [cutoff], limit)
        report.routes = try await deleteInBatches(
            "location_routes",
            """
            SELECT r.rowid FROM location_routes r WHERE r.active = 0 AND COALESCE(r.ended_at, r.started_at) < ?1
                AND NOT EXISTS (SELECT 1 FROM location_waypoints w WHERE w.route_id = r.id)
            """, [cutoff], limit)
        // A group deleted longer than the TTL ago, once its messages and files are gone (the lines above take
        // them: all are older than its deletion): its members first, then the row, so no cascade is unbounded.
        let goneGroup = """
            c.deleted_at < ?1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM files f WHERE f.conversation_id = c.id)
            """
        report.memberships = try await deleteInBatches(
            "members", "SELECT b.rowid FROM conversations c JOIN members b ON b.conversation_id = c.id WHERE \(goneGroup)", [cutoff], limit)
        report.conversations = try await deleteInBatches(
            "conversations",
            "SELECT c.rowid FROM conversations c WHERE \(goneGroup) AND NOT EXISTS (SELECT 1 FROM members b WHERE b.conversation_id = c.id)",
            [cutoff], limit)
        report.loginNonces = try await deleteInBatches(
            "login_nonces", "SELECT n.rowid FROM login_nonces n WHERE n.expires_at < ?1", [expired], limit)
        // A registration never confirmed: its code lived 15 minutes and registering again replaces it, so after a
        // day it is only keys a stranger left. Its one-time prekeys first (up to 100), then the account with its
        // device and signed prekeys (a cascade of three rows); the codes and held invites left without it after.
        let unconfirmed = now - policy.unconfirmedAccountAge
        report.unconfirmedPreKeys = try await deleteInBatches(
            "one_time_prekeys",
            "SELECT k.rowid FROM accounts a JOIN one_time_prekeys k ON k.account_id = a.id WHERE a.active = 0 AND a.created_at < ?1",
            [unconfirmed], limit)
        report.unconfirmedAccounts = try await deleteInBatches(
            "accounts",
            // (Nothing but its own keys can name a registration never confirmed; should anything, the sweep leaves it
            // rather than fail on the reference.)
            "SELECT a.rowid FROM accounts a WHERE a.active = 0 AND a.created_at < ?1 AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.creator_id = a.id)",
            [unconfirmed], limit)
        report.verifications = try await deleteInBatches(
            "verifications", "SELECT v.rowid FROM verifications v WHERE v.expires_at < ?1", [expired], limit)
        report.heldInvites = try await deleteInBatches(
            "held_invites",
            "SELECT h.rowid FROM held_invites h WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.email = h.email AND a.active = 0)",
            [], limit)
        report.pairings = try await deleteInBatches("pairings", "SELECT p.rowid FROM pairings p WHERE p.expires_at < ?1", [expired], limit)
        // Surge detection looks back a minute: an hour of registration records is plenty.
        report.registrations = try await deleteInBatches(
            "registrations", "SELECT g.rowid FROM registrations g WHERE g.at < ?1", [expired], limit)
        // A record an hour past its lockout is forgotten by the policy (`LockoutPolicy.forgetAfter`) anyway.
        report.lockouts = try await deleteInBatches(
            "lockouts", "SELECT l.rowid FROM lockouts l WHERE l.locked_until < ?1", [now - LockoutPolicy.forgetting], limit)
        return report
    }

    public func retainedRowCounts() async throws -> [String: Int] {
        try await read { db in
            var counts: [String: Int] = [:]
            for table in Self.retainedTables {
                counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
            }
            return counts
        }
    }

    /// Deletes the rows `select` names (rowids), `limit` per write transaction, until a batch comes up short;
    /// returns how many went. Cascades are not counted (SQLite's change count leaves them out).
    private func deleteInBatches(_ table: String, _ select: String, _ values: [Int64], _ limit: Int) async throws -> Int {
        let sql = "DELETE FROM \(table) WHERE rowid IN (\(select) LIMIT \(limit))"
        var total = 0
        while true {
            let deleted = try await write("retention") { db in
                try db.execute(sql: sql, arguments: StatementArguments(values))
                return db.changesCount
            }
            total += deleted
            if deleted < limit { return total }
        }
    }
}
