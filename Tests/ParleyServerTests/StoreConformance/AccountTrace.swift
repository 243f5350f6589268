import Foundation
import GRDB
import PostgresNIO
@testable import ParleyServer

/// Counts, table by table, the rows that still name an account (by id or e-mail): after a deletion every
/// count must be zero. Orphans (chunks, waypoints, envelopes whose parent went) are counted too.
enum AccountTrace {
    /// (table, condition) with `?1` the account id and `?2` its e-mail.
    static let checks: [(String, String)] = [
        ("accounts", "id = ?1 OR email = ?2"),
        ("devices", "account_id = ?1"),
        ("signed_prekeys", "account_id = ?1"),
        ("one_time_prekeys", "account_id = ?1"),
        ("login_nonces", "account_id = ?1"),
        ("verifications", "email = ?2"),
        ("lockouts", "subject LIKE '%' || ?2 || '%'"),
        ("conversations", "creator_id = ?1"),
        ("members", "account_id = ?1"),
        ("messages", "sender_id = ?1 OR pinned_by = ?1"),
        ("envelopes", "account_id = ?1 OR message_id NOT IN (SELECT id FROM messages)"),
        ("reactions", "account_id = ?1 OR message_id NOT IN (SELECT id FROM messages)"),
        ("deliveries", "account_id = ?1 OR message_id NOT IN (SELECT id FROM messages)"),
        ("profile_fields", "account_id = ?1"),
        ("avatars", "owner_kind = 'account' AND owner_id = ?1"),
        ("files", "owner_id = ?1"),
        ("file_chunks", "file_id NOT IN (SELECT id FROM files)"),
        ("location_routes", "owner_id = ?1"),
        ("location_waypoints", "route_id NOT IN (SELECT id FROM location_routes)"),
        ("location_followers", "owner_id = ?1 OR follower_id = ?1"),
        ("pairings", "email = ?2"),
        ("blocks", "blocker_id = ?1 OR blocked_id = ?1"),
        ("held_invites", "email = ?2"),
    ]
    static let postgresOnly: [(String, String)] = [
        ("account_clocks", "account_id = ?1"),
        ("rate_buckets", "subject = 'account:' || ?1::TEXT"),
    ]

    /// Tables with a row left for the account, and how many.
    static func leftovers(_ store: any Store, accountID: Int64, email: String) async throws -> [String: Int] {
        var found: [String: Int] = [:]
        if let sqlite = store as? SQLiteStore {
            for (table, condition) in checks {
                let count = try await sqlite.pool.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE (\(condition)) AND ?1 IS NOT NULL AND ?2 IS NOT NULL", arguments: [accountID, email]) ?? 0
                }
                if count > 0 { found[table] = count }
            }
        } else if let postgres = store as? PostgresStore {
            for (table, condition) in checks + postgresOnly {
                let sql = "SELECT COUNT(*) FROM \(table) WHERE \(condition.replacingOccurrences(of: "?1", with: "$1").replacingOccurrences(of: "?2", with: "$2"))"
                let count = try await postgres.read { db, log in
                    var binds = PostgresBindings()
                    binds.append(accountID)
                    binds.append(email)
                    return try await db.scalar(PostgresQuery(unsafeSQL: sql, binds: binds), log, as: Int64.self) ?? 0
                }
                if count > 0 { found[table] = Int(count) }
            }
        }
        return found
    }
}
