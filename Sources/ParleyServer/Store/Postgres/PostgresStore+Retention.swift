import Foundation
import PostgresNIO

extension PostgresStore {
    public func sweepExpired(now: Int64, policy: RetentionPolicy) async throws -> SweepReport {
        let cutoff = now - policy.timeToLive
        let abandoned = now - policy.abandonedUploadAge
        let expired = now - policy.expiredGrace
        let limit = max(1, policy.batchSize)
        // The same rules as SQLiteStore+Retention.swift: a deleted message's marker stays until its deletion is past the TTL.
        let oldMessage = "m.created_at < $1 AND (m.deleted_at IS NULL OR m.deleted_at < $1)"
        let oldFile = "((f.complete AND f.created_at < $1) OR (NOT f.complete AND f.created_at < $2))"
        var report = SweepReport()
        report.envelopes = try await deleteInBatches(
            "envelopes", "SELECT x.ctid FROM messages m JOIN envelopes x ON x.message_id = m.id WHERE m.created_at < $1", [cutoff], limit)
        report.reactions = try await deleteInBatches(
            "reactions", "SELECT x.ctid FROM messages m JOIN reactions x ON x.message_id = m.id WHERE \(oldMessage)", [cutoff], limit)
        report.messages = try await deleteInBatches(
            "messages", "SELECT x.ctid FROM messages x WHERE x.created_at < $1 AND (x.deleted_at IS NULL OR x.deleted_at < $1)", [cutoff], limit)
        report.fileChunks = try await deleteInBatches(
            "file_chunks",
            "SELECT x.ctid FROM files f JOIN file_chunks x ON x.file_id = f.id WHERE \(oldFile) ORDER BY x.file_id, x.chunk_offset",
            [cutoff, abandoned], limit)
        report.files = try await deleteInBatches(
            "files", "SELECT x.ctid FROM files x WHERE (x.complete AND x.created_at < $1) OR (NOT x.complete AND x.created_at < $2)", [cutoff, abandoned], limit)
        report.waypoints = try await deleteInBatches(
            "location_waypoints", "SELECT x.ctid FROM location_waypoints x WHERE x.received_at < $1", [cutoff], limit)
        report.routes = try await deleteInBatches(
            "location_routes",
            """
            SELECT x.ctid FROM location_routes x WHERE NOT x.active AND COALESCE(x.ended_at, x.started_at) < $1
                AND NOT EXISTS (SELECT 1 FROM location_waypoints w WHERE w.route_id = x.id)
            """, [cutoff], limit)
        let goneGroup = """
            c.deleted_at < $1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)
                AND NOT EXISTS (SELECT 1 FROM files f WHERE f.conversation_id = c.id)
            """
        report.memberships = try await deleteInBatches(
            "members", "SELECT x.ctid FROM conversations c JOIN members x ON x.conversation_id = c.id WHERE \(goneGroup)", [cutoff], limit)
        report.conversations = try await deleteInBatches(
            "conversations",
            """
            SELECT x.ctid FROM conversations x WHERE x.deleted_at < $1
                AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = x.id)
                AND NOT EXISTS (SELECT 1 FROM files f WHERE f.conversation_id = x.id)
                AND NOT EXISTS (SELECT 1 FROM members b WHERE b.conversation_id = x.id)
            """, [cutoff], limit)
        report.loginNonces = try await deleteInBatches(
            "login_nonces", "SELECT x.ctid FROM login_nonces x WHERE x.expires_at < $1", [expired], limit)
        let unconfirmed = now - policy.unconfirmedAccountAge
        report.unconfirmedPreKeys = try await deleteInBatches(
            "one_time_prekeys",
            "SELECT x.ctid FROM accounts a JOIN one_time_prekeys x ON x.account_id = a.id WHERE NOT a.active AND a.created_at < $1",
            [unconfirmed], limit)
        report.unconfirmedAccounts = try await deleteInBatches(
            "accounts",
            "SELECT x.ctid FROM accounts x WHERE NOT x.active AND x.created_at < $1 AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.creator_id = x.id)",
            [unconfirmed], limit)
        // Message clocks of accounts no longer there (these, and registrations replaced before this sweep existed):
        // not counted, as a cascade would not be.
        _ = try await deleteInBatches(
            "account_clocks", "SELECT x.ctid FROM account_clocks x WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.id = x.account_id)",
            [], limit)
        report.verifications = try await deleteInBatches(
            "verifications", "SELECT x.ctid FROM verifications x WHERE x.expires_at < $1", [expired], limit)
        report.heldInvites = try await deleteInBatches(
            "held_invites",
            "SELECT x.ctid FROM held_invites x WHERE NOT EXISTS (SELECT 1 FROM accounts a WHERE a.email = x.email AND NOT a.active)",
            [], limit)
        report.pairings = try await deleteInBatches("pairings", "SELECT x.ctid FROM pairings x WHERE x.expires_at < $1", [expired], limit)
        report.registrations = try await deleteInBatches(
            "registrations", "SELECT x.ctid FROM registrations x WHERE x.at < $1", [expired], limit)
        report.lockouts = try await deleteInBatches(
            "lockouts", "SELECT x.ctid FROM lockouts x WHERE x.locked_until < $1", [now - LockoutPolicy.forgetting], limit)
        try await foldUndeliveredReleases(limit: limit)
        // Releases of senders no longer there (an account's deletion can delete envelopes it sent after its own
        // releases): nothing would ever fold them.
        _ = try await deleteInBatches(
            "undelivered_releases",
            "SELECT x.ctid FROM undelivered_releases x WHERE NOT EXISTS (SELECT 1 FROM account_clocks c WHERE c.account_id = x.sender_id)",
            [], limit)
        return report
    }

    /// Folds the bytes deliveries released (`undelivered_releases`, PostgresMigrations v17) into their senders'
    /// clock rows, `limit` senders per transaction: a sender's next message does this too, but one who stops
    /// sending would keep their rows for ever. Bookkeeping, not deletion, so not in the report; a sender's total
    /// (`undeliveredBytes`) reads the same before and after.
    ///
    /// The clock row is locked first and skipped if a send holds it — the order the send statement takes them in —
    /// so neither ever waits for the other's release rows. At most 1,000 batches a sweep, so deliveries that keep
    /// releasing cannot hold one sweep for ever; the next sweep goes on.
    private func foldUndeliveredReleases(limit: Int) async throws {
        let sql = """
            WITH senders AS (
                SELECT c.account_id FROM account_clocks c
                WHERE c.account_id IN (SELECT DISTINCT sender_id FROM undelivered_releases)
                ORDER BY c.account_id LIMIT \(limit)
                FOR UPDATE OF c SKIP LOCKED
            ), taken AS (
                DELETE FROM undelivered_releases r USING senders s WHERE r.sender_id = s.account_id
                RETURNING r.sender_id, r.bytes
            ), summed AS (
                SELECT sender_id, SUM(bytes)::BIGINT AS bytes FROM taken GROUP BY sender_id
            ), folded AS (
                UPDATE account_clocks c SET undelivered_bytes = c.undelivered_bytes - s.bytes
                FROM summed s WHERE c.account_id = s.sender_id
            )
            SELECT COUNT(*)::BIGINT FROM senders
            """
        for _ in 0..<1_000 {
            let senders = try await transaction("retention") { db, log in
                try await db.scalar(PostgresQuery(unsafeSQL: sql), log, as: Int64.self) ?? 0
            }
            if senders < Int64(limit) { return }
        }
    }

    public func retainedRowCounts() async throws -> [String: Int] {
        try await read { db, log in
            var counts: [String: Int] = [:]
            for table in Self.retainedTables {
                let count = try await db.scalar(PostgresQuery(unsafeSQL: "SELECT COUNT(*)::BIGINT FROM \(table)"), log, as: Int64.self)
                counts[table] = Int(count ?? 0)
            }
            return counts
        }
    }

    /// Deletes the rows `select` names (`x.ctid`), `limit` per transaction, until a batch comes up short; returns
    /// how many went.
    ///
    /// `FOR UPDATE OF x SKIP LOCKED` lets sweeps on several nodes run at once: each takes rows no other holds, so
    /// none waits, deadlocks or counts a row twice; a row another transaction deleted first is simply not there.
    /// The row locks also pin each `ctid` until the DELETE in the same transaction.
    private func deleteInBatches(_ table: String, _ select: String, _ values: [Int64], _ limit: Int) async throws -> Int {
        let sql = """
            WITH gone AS (
                DELETE FROM \(table) WHERE ctid = ANY(ARRAY(\(select) LIMIT \(limit) FOR UPDATE OF x SKIP LOCKED)) RETURNING 1
            )
            SELECT COUNT(*)::BIGINT FROM gone
            """
        var total = 0
        while true {
            let deleted = try await transaction("retention") { db, log in
                var binds = PostgresBindings()
                for value in values { binds.append(value) }
                return try await db.scalar(PostgresQuery(unsafeSQL: sql, binds: binds), log, as: Int64.self) ?? 0
            }
            total += Int(deleted)
            if deleted < Int64(limit) { return total }
        }
    }
}
