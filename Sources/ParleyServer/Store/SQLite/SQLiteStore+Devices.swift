import Foundation
import GRDB

extension SQLiteStore {
    public func addDevice(accountID: Int64, name: String, preKeys: PreKeyUpload, pairingID: UInt32?, limit: Int, now: Int64) async throws -> DeviceRecord? {
        try await write("device") { db in
            guard let next = try Int64.fetchOne(db, sql: "SELECT next_device_id FROM accounts WHERE id = ?", arguments: [accountID]) else {
                throw StoreError.unavailable("the account is gone")
            }
            let held = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM devices WHERE account_id = ?", arguments: [accountID]) ?? 0
            guard held < limit else { return nil }
            try db.execute(sql: "UPDATE accounts SET next_device_id = ? WHERE id = ?", arguments: [next + 1, accountID])
            try db.execute(
                sql: "INSERT INTO devices (account_id, device_id, name, created_at, last_seen) VALUES (?, ?, ?, ?, ?)",
                arguments: [accountID, next, name, now, now])
            try Self.insertPreKeys(db, accountID: accountID, deviceID: UInt32(next), preKeys)
            if let pairingID {
                try db.execute(sql: "UPDATE pairings SET device_id = ? WHERE id = ?", arguments: [next, Int64(pairingID)])
            }
            return DeviceRecord(accountID: accountID, deviceID: UInt32(next), name: name, createdAt: now, lastSeen: now)
        }
    }

    public func touchDevice(accountID: Int64, deviceID: UInt32, at: Int64) async throws {
        try await write("device") { db in
            try db.execute(
                sql: "UPDATE devices SET last_seen = max(last_seen, ?) WHERE account_id = ? AND device_id = ?",
                arguments: [at, accountID, Int64(deviceID)])
        }
    }
}
