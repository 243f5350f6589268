import Foundation
import GRDB

extension SQLiteStore {
    public func createPendingAccount(_ account: NewAccount, verification: VerificationRecord, now: Int64) async throws -> Int64 {
        try await write("an account with this e-mail") { db in
            if let active = try Bool.fetchOne(db, sql: "SELECT active FROM accounts WHERE email = ?", arguments: [account.email]) {
                guard !active else { throw StoreError.conflict("an account with this e-mail") }
                try db.execute(sql: "DELETE FROM accounts WHERE email = ?", arguments: [account.email])
            }
            try db.execute(
                sql: """
                    INSERT INTO accounts (email, display_name, identity_key, auth_key, key_envelope, active, created_at)
                    VALUES (?, ?, ?, ?, ?, 0, ?)
                    """,
                arguments: [account.email, account.displayName, Data(account.identityKey), Data(account.authKey),
                            account.keyEnvelope.map { Data($0) }, now])
            let id = db.lastInsertedRowID
            try db.execute(
                sql: "INSERT INTO devices (account_id, device_id, name, created_at, last_seen) VALUES (?, 1, ?, ?, ?)",
                arguments: [id, account.deviceName, now, now])
            try Self.insertPreKeys(db, accountID: id, deviceID: 1, account.preKeys)
            try db.execute(
                sql: """
                    INSERT INTO verifications (email, code_hash, expires_at, failed_attempts) VALUES (?, ?, ?, 0)
                    ON CONFLICT (email) DO UPDATE SET code_hash = excluded.code_hash,
                        expires_at = excluded.expires_at, failed_attempts = 0
                    """,
                arguments: [account.email, Data(verification.codeHash), verification.expiresAt])
            try db.execute(sql: "INSERT INTO registrations (at) VALUES (?)", arguments: [now])
            return id
        }
    }

    static func insertPreKeys(_ db: Database, accountID: Int64, deviceID: UInt32, _ keys: PreKeyUpload) throws {
        for (kind, key) in [("spk", keys.signedPreKey), ("pq", keys.pqPreKey)] {
            try db.execute(
                sql: """
                    INSERT INTO signed_prekeys (account_id, device_id, kind, key_id, public_key, signature)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, device_id, kind) DO UPDATE SET key_id = excluded.key_id,
                        public_key = excluded.public_key, signature = excluded.signature
                    """,
                arguments: [accountID, Int64(deviceID), kind, Int64(key.id), Data(key.publicKey), Data(key.signature)])
        }
        for key in keys.oneTimePreKeys {
            try db.execute(
                sql: "INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key) VALUES (?, ?, ?, ?)",
                arguments: [accountID, Int64(deviceID), Int64(key.id), Data(key.publicKey)])
        }
    }

    public func verification(email: String) async throws -> VerificationRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM verifications WHERE email = ?", arguments: [email]).map { row in
                VerificationRecord(
                    codeHash: Array(row["code_hash"] as Data), expiresAt: row["expires_at"],
                    failedAttempts: row["failed_attempts"])
            }
        }
    }

    public func saveRecoveryCode(email: String, _ verification: VerificationRecord) async throws {
        try await write("verification") { db in
            try db.execute(
                sql: """
                    INSERT INTO verifications (email, code_hash, expires_at, failed_attempts) VALUES (?, ?, ?, 0)
                    ON CONFLICT (email) DO UPDATE SET code_hash = excluded.code_hash,
                        expires_at = excluded.expires_at, failed_attempts = 0
                    """,
                arguments: [email, Data(verification.codeHash), verification.expiresAt])
        }
    }

    public func recordWrongCode(email: String) async throws -> Int {
        try await write("verification") { db in
            try db.execute(sql: "UPDATE verifications SET failed_attempts = failed_attempts + 1 WHERE email = ?", arguments: [email])
            return try Int.fetchOne(db, sql: "SELECT failed_attempts FROM verifications WHERE email = ?", arguments: [email]) ?? 0
        }
    }

    public func deleteVerification(email: String) async throws {
        try await write("verification") { db in
            try db.execute(sql: "DELETE FROM verifications WHERE email = ?", arguments: [email])
        }
    }

    public func activateAccount(email: String) async throws {
        try await write("account") { db in
            try db.execute(sql: "UPDATE accounts SET active = 1 WHERE email = ?", arguments: [email])
            try db.execute(sql: "DELETE FROM verifications WHERE email = ?", arguments: [email])
        }
    }

    public func account(email: String) async throws -> AccountRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM accounts WHERE email = ?", arguments: [email]).map(Self.accountRecord)
        }
    }

    public func device(accountID: Int64, deviceID: UInt32) async throws -> DeviceRecord? {
        try await read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM devices WHERE account_id = ? AND device_id = ?",
                arguments: [accountID, Int64(deviceID)]
            ).map { row in
                DeviceRecord(
                    accountID: row["account_id"], deviceID: UInt32(row["device_id"] as Int64),
                    name: row["name"], createdAt: row["created_at"], lastSeen: row["last_seen"])
            }
        }
    }

    public func devices(accountID: Int64) async throws -> [DeviceRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE account_id = ? ORDER BY device_id", arguments: [accountID]).map { row in
                DeviceRecord(
                    accountID: row["account_id"], deviceID: UInt32(row["device_id"] as Int64),
                    name: row["name"], createdAt: row["created_at"], lastSeen: row["last_seen"])
            }
        }
    }

    public func account(id: Int64) async throws -> AccountRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]).map(Self.accountRecord)
        }
    }

    static func accountRecord(_ row: Row) -> AccountRecord {
        AccountRecord(
            id: row["id"], email: row["email"], displayName: row["display_name"],
            identityKey: Array(row["identity_key"] as Data), authKey: Array(row["auth_key"] as Data),
            keyEnvelope: (row["key_envelope"] as Data?).map { Array($0) }, isActive: row["active"], disabledAt: row["disabled_at"])
    }

    public func registrationCount(since: Int64) async throws -> Int {
        try await read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM registrations WHERE at >= ?", arguments: [since]) ?? 0
        }
    }

    public func recordRegistrationAttempt(now: Int64) async throws {
        try await write("registration attempt") { db in
            try db.execute(sql: "INSERT INTO registrations (at) VALUES (?)", arguments: [now])
        }
    }
}
