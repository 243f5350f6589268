import Foundation
import GRDB

extension SQLiteStore {
    public func profileFields(accountID: Int64) async throws -> [ProfileField] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM profile_fields WHERE account_id = ? ORDER BY field", arguments: [accountID]).map { row in
                ProfileField(name: row["field"], value: row["value"], visibility: Visibility(rawValue: row["visibility"]) ?? .nobody)
            }
        }
    }

    public func setProfileFields(accountID: Int64, _ fields: [ProfileField]) async throws {
        try await write("profile") { db in
            for field in fields {
                if field.value.isEmpty {
                    try db.execute(sql: "DELETE FROM profile_fields WHERE account_id = ? AND field = ?", arguments: [accountID, field.name])
                } else {
                    try db.execute(
                        sql: """
                            INSERT INTO profile_fields (account_id, field, value, visibility) VALUES (?, ?, ?, ?)
                            ON CONFLICT (account_id, field) DO UPDATE SET value = excluded.value, visibility = excluded.visibility
                            """,
                        arguments: [accountID, field.name, field.value, field.visibility.rawValue])
                }
            }
        }
    }

    public func setDisplayName(accountID: Int64, _ name: String) async throws {
        try await write("profile") { db in
            try db.execute(sql: "UPDATE accounts SET display_name = ? WHERE id = ?", arguments: [name, accountID])
        }
    }

    static func ownerKey(_ owner: AvatarOwner) -> (String, Int64) {
        switch owner {
        case .account(let id): ("account", id)
        case .group(let id): ("group", id)
        }
    }

    public func setAvatar(_ owner: AvatarOwner, blob: [UInt8], now: Int64) async throws {
        let (kind, id) = Self.ownerKey(owner)
        try await write("avatar") { db in
            try db.execute(
                sql: """
                    INSERT INTO avatars (owner_kind, owner_id, blob, updated_at) SELECT ?1, ?2, ?3, ?4
                        WHERE ?1 = 'account' OR EXISTS (SELECT 1 FROM conversations WHERE id = ?2 AND deleted_at IS NULL)
                    ON CONFLICT (owner_kind, owner_id) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at
                    """,
                arguments: [kind, id, Data(blob), now])
        }
    }

    public func avatar(_ owner: AvatarOwner) async throws -> (blob: [UInt8], updatedAt: Int64)? {
        let (kind, id) = Self.ownerKey(owner)
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM avatars WHERE owner_kind = ? AND owner_id = ?", arguments: [kind, id]).map { row in
                (Array(row["blob"] as Data), row["updated_at"] as Int64)
            }
        }
    }
}
