import Foundation
import PostgresNIO

extension PostgresStore {
    public func addDevice(accountID: Int64, name: String, preKeys: PreKeyUpload, pairingID: UInt32?, limit: Int, now: Int64) async throws -> DeviceRecord? {
        try await transaction("device") { db, log in
            // The account row's lock orders devices added at once: each gets its own id, and each counts the
            // devices of those that committed before it (a statement of its own sees them).
            guard let next = try await db.scalar(
                "SELECT next_device_id FROM accounts WHERE id = \(accountID) FOR UPDATE", log, as: Int64.self)
            else { throw StoreError.unavailable("the account is gone") }
            let held = try await db.scalar("SELECT COUNT(*) FROM devices WHERE account_id = \(accountID)", log, as: Int64.self) ?? 0
            guard held < Int64(limit) else { return nil }
            try await db.run("UPDATE accounts SET next_device_id = \(next + 1) WHERE id = \(accountID)", log)
            try await db.run(
                "INSERT INTO devices (account_id, device_id, name, created_at, last_seen) VALUES (\(accountID), \(next), \(name), \(now), \(now))",
                log)
            try await Self.insertPreKeys(db, log, accountID: accountID, deviceID: UInt32(next), preKeys)
            if let pairingID {
                try await db.run("UPDATE pairings SET device_id = \(next) WHERE id = \(Int64(pairingID))", log)
            }
            return DeviceRecord(accountID: accountID, deviceID: UInt32(next), name: name, createdAt: now, lastSeen: now)
        }
    }

    public func touchDevice(accountID: Int64, deviceID: UInt32, at: Int64) async throws {
        try await transaction("device") { db, log in
            try await db.run(
                "UPDATE devices SET last_seen = GREATEST(last_seen, \(at)) WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID))",
                log)
        }
    }
}
