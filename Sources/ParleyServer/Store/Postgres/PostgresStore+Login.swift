import Foundation
import PostgresNIO

extension PostgresStore {
    public func saveLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, expiresAt: Int64) async throws {
        try await transaction("login nonce") { db, log in
            try await db.run("DELETE FROM login_nonces WHERE expires_at < \(expiresAt - LoginNonceWindow.span)", log)
            try await db.run(
                """
                INSERT INTO login_nonces (nonce, account_id, device_id, expires_at)
                VALUES (\(Data(nonce)), \(accountID), \(Int64(deviceID)), \(expiresAt))
                """, log)
        }
    }

    public func consumeLoginNonce(_ nonce: [UInt8], accountID: Int64, deviceID: UInt32, now: Int64) async throws -> Bool {
        try await transaction("login nonce") { db, log in
            // DELETE … RETURNING: of two concurrent logins with one nonce, exactly one gets the row.
            guard let row = try await db.row(
                "DELETE FROM login_nonces WHERE nonce = \(Data(nonce)) RETURNING account_id, device_id, expires_at", log)
            else { return false }
            return try row.get("account_id", as: Int64.self) == accountID && row.get("device_id", as: Int64.self) == Int64(deviceID)
                && row.get("expires_at", as: Int64.self) >= now
        }
    }

    public func lockout(subject: String) async throws -> LockoutRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM lockouts WHERE subject = \(subject)", log).map { row in
                LockoutRecord(failures: Int(try row.get("failures", as: Int64.self)), lockedUntil: try row.get("locked_until"))
            }
        }
    }

    public func saveLockout(subject: String, _ record: LockoutRecord) async throws {
        try await transaction("lockout") { db, log in
            try await db.run(
                """
                INSERT INTO lockouts (subject, failures, locked_until) VALUES (\(subject), \(Int64(record.failures)), \(record.lockedUntil))
                ON CONFLICT (subject) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until
                """, log)
        }
    }

    public func clearLockout(subject: String) async throws {
        try await transaction("lockout") { db, log in
            try await db.run("DELETE FROM lockouts WHERE subject = \(subject)", log)
        }
    }
}
