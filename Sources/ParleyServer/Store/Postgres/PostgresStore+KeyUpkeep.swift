import Foundation
import PostgresNIO

extension PostgresStore {
    public func setKeyEnvelope(accountID: Int64, _ envelope: [UInt8]?) async throws {
        try await transaction("account") { db, log in
            try await db.run("UPDATE accounts SET key_envelope = \(envelope.map { Data($0) }) WHERE id = \(accountID)", log)
        }
    }

    public func rotateKeys(accountID: Int64, deviceID: UInt32, identityKey: [UInt8], authKey: [UInt8], preKeys: PreKeyUpload) async throws {
        try await transaction("keys") { db, log in
            try await db.run(
                "UPDATE accounts SET identity_key = \(Data(identityKey)), auth_key = \(Data(authKey)) WHERE id = \(accountID)", log)
            try await db.run("DELETE FROM one_time_prekeys WHERE account_id = \(accountID)", log)
            try await db.run("DELETE FROM signed_prekeys WHERE account_id = \(accountID)", log)
            // The other devices cannot follow the new identity: they leave the account here (as on SQLite).
            let device = Int64(deviceID)
            try await db.run("DELETE FROM envelopes WHERE account_id = \(accountID) AND device_id <> \(device)", log)
            try await db.run("DELETE FROM login_nonces WHERE account_id = \(accountID) AND device_id <> \(device)", log)
            try await db.run("DELETE FROM devices WHERE account_id = \(accountID) AND device_id <> \(device)", log)
            try await Self.insertPreKeys(db, log, accountID: accountID, deviceID: deviceID, preKeys)
        }
    }

    public func removeDevice(accountID: Int64, deviceID: UInt32) async throws {
        try await transaction("device") { db, log in
            let device = Int64(deviceID)
            try await db.run("DELETE FROM devices WHERE account_id = \(accountID) AND device_id = \(device)", log)
            try await db.run("DELETE FROM envelopes WHERE account_id = \(accountID) AND device_id = \(device)", log)
            try await db.run("DELETE FROM login_nonces WHERE account_id = \(accountID) AND device_id = \(device)", log)
        }
    }

    public func accountID(username: String) async throws -> Int64? {
        try await read { db, log in
            try await db.scalar(
                "SELECT account_id FROM profile_fields WHERE field = 'username' AND value = \(username)", log, as: Int64.self)
        }
    }
}
