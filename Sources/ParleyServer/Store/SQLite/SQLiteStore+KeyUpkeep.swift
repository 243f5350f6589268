import Foundation
import GRDB

extension SQLiteStore {
    public func setKeyEnvelope(accountID: Int64, _ envelope: [UInt8]?) async throws {
        try await write("account") { db in
            try db.execute(sql: "UPDATE accounts SET key_envelope = ? WHERE id = ?", arguments: [envelope.map { Data($0) }, accountID])
        }
    }

    public func rotateKeys(accountID: Int64, deviceID: UInt32, identityKey: [UInt8], authKey: [UInt8], preKeys: PreKeyUpload) async throws {
        try await write("keys") { db in
            try db.execute(
                sql: "UPDATE accounts SET identity_key = ?, auth_key = ? WHERE id = ?",
                arguments: [Data(identityKey), Data(authKey), accountID])
            try db.execute(sql: "DELETE FROM one_time_prekeys WHERE account_id = ?", arguments: [accountID])
            try db.execute(sql: "DELETE FROM signed_prekeys WHERE account_id = ?", arguments: [accountID])
            // The other devices cannot follow the new identity (they never get its seed): they leave the
            // account here, so senders stop owing them envelopes (`stale_devices`) at once.
            for table in ["envelopes", "login_nonces", "devices"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE account_id = ? AND device_id <> ?", arguments: [accountID, Int64(deviceID)])
            }
            try Self.insertPreKeys(db, accountID: accountID, deviceID: deviceID, preKeys)
        }
    }

    public func removeDevice(accountID: Int64, deviceID: UInt32) async throws {
        try await write("device") { db in
            try db.execute(sql: "DELETE FROM devices WHERE account_id = ? AND device_id = ?", arguments: [accountID, Int64(deviceID)])
            try db.execute(sql: "DELETE FROM envelopes WHERE account_id = ? AND device_id = ?", arguments: [accountID, Int64(deviceID)])
            try db.execute(sql: "DELETE FROM login_nonces WHERE account_id = ? AND device_id = ?", arguments: [accountID, Int64(deviceID)])
        }
    }

    public func accountID(username: String) async throws -> Int64? {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT account_id FROM profile_fields WHERE field = 'username' AND value = ?", arguments: [username])
        }
    }
}
