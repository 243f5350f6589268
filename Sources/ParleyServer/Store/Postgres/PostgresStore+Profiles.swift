import Foundation
import PostgresNIO

extension PostgresStore {
    public func profileFields(accountID: Int64) async throws -> [ProfileField] {
        try await read { db, log in
            try await db.rows("SELECT * FROM profile_fields WHERE account_id = \(accountID) ORDER BY field", log).map { row in
                ProfileField(
                    name: try row.get("field"), value: try row.get("value"),
                    visibility: Visibility(rawValue: try row.get("visibility")) ?? .nobody)
            }
        }
    }

    public func setProfileFields(accountID: Int64, _ fields: [ProfileField]) async throws {
        try await transaction("profile") { db, log in
            for field in fields {
                if field.value.isEmpty {
                    try await db.run("DELETE FROM profile_fields WHERE account_id = \(accountID) AND field = \(field.name)", log)
                } else {
                    try await db.run(
                        """
                        INSERT INTO profile_fields (account_id, field, value, visibility)
                        VALUES (\(accountID), \(field.name), \(field.value), \(field.visibility.rawValue))
                        ON CONFLICT (account_id, field) DO UPDATE SET value = excluded.value, visibility = excluded.visibility
                        """, log)
                }
            }
        }
    }

    public func setDisplayName(accountID: Int64, _ name: String) async throws {
        try await transaction("profile") { db, log in
            try await db.run("UPDATE accounts SET display_name = \(name) WHERE id = \(accountID)", log)
        }
    }

    public func setAvatar(_ owner: AvatarOwner, blob: [UInt8], now: Int64) async throws {
        let (kind, id) = SQLiteStore.ownerKey(owner)
        let upsert = "ON CONFLICT (owner_kind, owner_id) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at"
        let insert: PostgresQuery
        switch owner {
        case .account:
            insert = try "INSERT INTO avatars (owner_kind, owner_id, blob, updated_at) VALUES (\(kind), \(id), \(Data(blob)), \(now)) \(unescaped: upsert)"
        case .group:
            // Only while the group lives: the share lock makes a deletion committed meanwhile seen here (or makes
            // it wait for this insert, and then delete the picture with the group).
            insert = try """
                WITH live AS (SELECT 1 FROM conversations WHERE id = \(id) AND deleted_at IS NULL FOR SHARE)
                INSERT INTO avatars (owner_kind, owner_id, blob, updated_at)
                    SELECT \(kind), \(id), \(Data(blob)), \(now) WHERE EXISTS (SELECT 1 FROM live) \(unescaped: upsert)
                """
        }
        try await transaction("avatar") { db, log in try await db.run(insert, log) }
    }

    public func avatar(_ owner: AvatarOwner) async throws -> (blob: [UInt8], updatedAt: Int64)? {
        let (kind, id) = SQLiteStore.ownerKey(owner)
        return try await read { db, log in
            try await db.row("SELECT * FROM avatars WHERE owner_kind = \(kind) AND owner_id = \(id)", log).map { row in
                (try row.bytes("blob"), try row.get("updated_at", as: Int64.self))
            }
        }
    }
}
