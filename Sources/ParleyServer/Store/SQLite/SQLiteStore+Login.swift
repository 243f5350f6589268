import Foundation
import GRDB

extension SQLiteStore {
    public func saveLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, expiresAt: Int64) async throws {
        try await write("login nonce") { db in
            try db.execute(sql: "DELETE FROM login_nonces WHERE expires_at < ?", arguments: [expiresAt - LoginNonceWindow.span])
            try db.execute(
                sql: "INSERT INTO login_nonces (nonce, account_id, device_id, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [Data(nonce), accountID, Int64(deviceID), expiresAt])
        }
    }

    public func consumeLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, now: Int64) async throws -> Bool {
        try await write("login nonce") { db in
            let row = try Row.fetchOne(db, sql: "SELECT * FROM login_nonces WHERE nonce = ?", arguments: [Data(nonce)])
            try db.execute(sql: "DELETE FROM login_nonces WHERE nonce = ?", arguments: [Data(nonce)])
            guard let row else { return false }
            return row["account_id"] == accountID && row["device_id"] == Int64(deviceID) && (row["expires_at"] as Int64) >= now
        }
    }

    public func lockout(subject: String) async throws -> LockoutRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM lockouts WHERE subject = ?", arguments: [subject]).map { row in
                LockoutRecord(failures: row["failures"], lockedUntil: row["locked_until"])
            }
        }
    }

    public func saveLockout(subject: String, _ record: LockoutRecord) async throws {
        try await write("lockout") { db in
            try db.execute(
                sql: """
                    INSERT INTO lockouts (subject, failures, locked_until) VALUES (?, ?, ?)
                    ON CONFLICT (subject) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until
                    """,
                arguments: [subject, record.failures, record.lockedUntil])
        }
    }

    public func clearLockout(subject: String) async throws {
        try await write("lockout") { db in
            try db.execute(sql: "DELETE FROM lockouts WHERE subject = ?", arguments: [subject])
        }
    }
}
