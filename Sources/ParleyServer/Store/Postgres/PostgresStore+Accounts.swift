import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    public func createPendingAccount(_ account: NewAccount, verification: VerificationRecord, now: Int64) async throws -> Int64 {
        // Two registrations racing for one e-mail: the loser's insert hits the unique e-mail and is
        // retried, where it finds the winner's pending row and replaces it, as SQLite would.
        try await transaction("an account with this e-mail", retryOnConflict: true) { db, log in
            if let active = try await db.scalar(
                "SELECT active FROM accounts WHERE email = \(account.email) FOR UPDATE", log, as: Bool.self)
            {
                guard !active else { throw StoreError.conflict("an account with this e-mail") }
                // The replaced registration's clock goes with it (it has no foreign key to cascade from).
                try await db.run(
                    "DELETE FROM account_clocks WHERE account_id = (SELECT id FROM accounts WHERE email = \(account.email))", log)
                try await db.run("DELETE FROM accounts WHERE email = \(account.email)", log)
            }
            let envelope = account.keyEnvelope.map { Data($0) }
            guard let id = try await db.scalar(
                """
                INSERT INTO accounts (email, display_name, identity_key, auth_key, key_envelope, active, created_at)
                VALUES (\(account.email), \(account.displayName), \(Data(account.identityKey)), \(Data(account.authKey)),
                    \(envelope), FALSE, \(now))
                RETURNING id
                """, log, as: Int64.self)
            else { throw StoreError.unavailable("account insert returned no id") }
            // The account's message clock, so that its first message needs no statement to make one; it starts
            // at the old cluster-wide clock, so no account's timestamps go back.
            try await db.run(
                "INSERT INTO account_clocks (account_id, last) SELECT \(id), last FROM message_clock ON CONFLICT (account_id) DO NOTHING", log)
            try await db.run(
                "INSERT INTO devices (account_id, device_id, name, created_at, last_seen) VALUES (\(id), 1, \(account.deviceName), \(now), \(now))",
                log)
            try await Self.insertPreKeys(db, log, accountID: id, deviceID: 1, account.preKeys)
            try await db.run(
                """
                INSERT INTO verifications (email, code_hash, expires_at, failed_attempts)
                VALUES (\(account.email), \(Data(verification.codeHash)), \(verification.expiresAt), 0)
                ON CONFLICT (email) DO UPDATE SET code_hash = excluded.code_hash,
                    expires_at = excluded.expires_at, failed_attempts = 0
                """, log)
            try await db.run("INSERT INTO registrations (at) VALUES (\(now))", log)
            return id
        }
    }

    static func insertPreKeys(_ db: PostgresConnection, _ log: Logger, accountID: Int64, deviceID: UInt32, _ keys: PreKeyUpload) async throws {
        for (kind, key) in [("spk", keys.signedPreKey), ("pq", keys.pqPreKey)] {
            try await db.run(
                """
                INSERT INTO signed_prekeys (account_id, device_id, kind, key_id, public_key, signature)
                VALUES (\(accountID), \(Int64(deviceID)), \(kind), \(Int64(key.id)), \(Data(key.publicKey)), \(Data(key.signature)))
                ON CONFLICT (account_id, device_id, kind) DO UPDATE SET key_id = excluded.key_id,
                    public_key = excluded.public_key, signature = excluded.signature
                """, log)
        }
        for key in keys.oneTimePreKeys {
            try await db.run(
                """
                INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key)
                VALUES (\(accountID), \(Int64(deviceID)), \(Int64(key.id)), \(Data(key.publicKey)))
                """, log)
        }
    }

    public func verification(email: String) async throws -> VerificationRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM verifications WHERE email = \(email)", log).map { row in
                VerificationRecord(
                    codeHash: try row.bytes("code_hash"), expiresAt: try row.get("expires_at"),
                    failedAttempts: Int(try row.get("failed_attempts", as: Int64.self)))
            }
        }
    }

    public func saveRecoveryCode(email: String, _ verification: VerificationRecord) async throws {
        try await transaction("verification") { db, log in
            try await db.run(
                """
                INSERT INTO verifications (email, code_hash, expires_at, failed_attempts)
                VALUES (\(email), \(Data(verification.codeHash)), \(verification.expiresAt), 0)
                ON CONFLICT (email) DO UPDATE SET code_hash = excluded.code_hash,
                    expires_at = excluded.expires_at, failed_attempts = 0
                """, log)
        }
    }

    public func recordWrongCode(email: String) async throws -> Int {
        try await transaction("verification") { db, log in
            // One statement: concurrent wrong codes each count (no lost update).
            let count = try await db.scalar(
                "UPDATE verifications SET failed_attempts = failed_attempts + 1 WHERE email = \(email) RETURNING failed_attempts",
                log, as: Int64.self)
            return Int(count ?? 0)
        }
    }

    public func deleteVerification(email: String) async throws {
        try await transaction("verification") { db, log in
            try await db.run("DELETE FROM verifications WHERE email = \(email)", log)
        }
    }

    public func activateAccount(email: String) async throws {
        try await transaction("account") { db, log in
            try await db.run("UPDATE accounts SET active = TRUE WHERE email = \(email)", log)
            try await db.run("DELETE FROM verifications WHERE email = \(email)", log)
        }
    }

    public func account(email: String) async throws -> AccountRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM accounts WHERE email = \(email)", log).map(Self.accountRecord)
        }
    }

    static func deviceRecord(_ row: PostgresRandomAccessRow) throws -> DeviceRecord {
        DeviceRecord(
            accountID: try row.get("account_id"), deviceID: UInt32(truncatingIfNeeded: try row.get("device_id", as: Int64.self)),
            name: try row.get("name"), createdAt: try row.get("created_at"), lastSeen: try row.get("last_seen"))
    }

    public func device(accountID: Int64, deviceID: UInt32) async throws -> DeviceRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM devices WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID))", log)
                .map(Self.deviceRecord)
        }
    }

    public func devices(accountID: Int64) async throws -> [DeviceRecord] {
        try await read { db, log in
            try await db.rows("SELECT * FROM devices WHERE account_id = \(accountID) ORDER BY device_id", log).map(Self.deviceRecord)
        }
    }

    public func account(id: Int64) async throws -> AccountRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM accounts WHERE id = \(id)", log).map(Self.accountRecord)
        }
    }

    static func accountRecord(_ row: PostgresRandomAccessRow) throws -> AccountRecord {
        AccountRecord(
            id: try row.get("id"), email: try row.get("email"), displayName: try row.get("display_name"),
            identityKey: try row.bytes("identity_key"), authKey: try row.bytes("auth_key"),
            keyEnvelope: try row.optionalBytes("key_envelope"), isActive: try row.get("active"),
            disabledAt: try row.get("disabled_at"))
    }

    public func registrationCount(since: Int64) async throws -> Int {
        try await read { db, log in
            Int(try await db.scalar("SELECT COUNT(*) FROM registrations WHERE at >= \(since)", log, as: Int64.self) ?? 0)
        }
    }

    public func recordRegistrationAttempt(now: Int64) async throws {
        try await transaction("registration attempt") { db, log in
            try await db.run("INSERT INTO registrations (at) VALUES (\(now))", log)
        }
    }
}
