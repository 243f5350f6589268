import Foundation
import PostgresNIO

extension PostgresStore {
    public func takeKeyBundles(accountID: Int64, takingOneTime: Bool) async throws -> [KeyBundle] {
        try await transaction("key bundle") { db, log in
            let devices = try await db.column(
                "SELECT device_id FROM devices WHERE account_id = \(accountID) ORDER BY device_id", log, as: Int64.self)
            var bundles: [KeyBundle] = []
            for device in devices {
                let signed = try await db.rows(
                    "SELECT * FROM signed_prekeys WHERE account_id = \(accountID) AND device_id = \(device)", log)
                func key(_ kind: String) throws -> PreKeyUpload.Signed? {
                    guard let row = try signed.first(where: { try $0.get("kind", as: String.self) == kind }) else { return nil }
                    return PreKeyUpload.Signed(
                        id: UInt32(truncatingIfNeeded: try row.get("key_id", as: Int64.self)), publicKey: try row.bytes("public_key"),
                        signature: try row.bytes("signature"))
                }
                guard let spk = try key("spk"), let pq = try key("pq") else { continue }
                // Claim one key in one statement; SKIP LOCKED lets a concurrent claimer take the next
                // key instead of waiting and then finding this one gone. Each key goes to exactly one caller.
                let claimed = !takingOneTime ? nil : try await db.row(
                    """
                    DELETE FROM one_time_prekeys WHERE (account_id, device_id, key_id) = (
                        SELECT account_id, device_id, key_id FROM one_time_prekeys
                        WHERE account_id = \(accountID) AND device_id = \(device)
                        ORDER BY key_id LIMIT 1 FOR UPDATE SKIP LOCKED)
                    RETURNING key_id, public_key
                    """, log)
                let oneTime = try claimed.map { row in
                    (UInt32(truncatingIfNeeded: try row.get("key_id", as: Int64.self)), try row.bytes("public_key"))
                }
                bundles.append(KeyBundle(deviceID: UInt32(truncatingIfNeeded: device), signedPreKey: spk, pqPreKey: pq, oneTimePreKey: oneTime))
            }
            return bundles
        }
    }

    public func addPreKeys(
        accountID: Int64, deviceID: UInt32, signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?,
        oneTime: [(id: UInt32, publicKey: [UInt8])], maximumOneTime: Int
    ) async throws -> PreKeyAddition {
        let oneTime = oneTime.map { (Int64($0.id), Data($0.publicKey)) }
        return try await transaction("a one-time prekey with this id") { db, log in
            // The device's row, locked, makes uploads of one device count one after another: two at once could
            // each see room for themselves.
            try await db.run("SELECT 1 FROM devices WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID)) FOR UPDATE", log)
            let stored = Int(try await db.scalar(
                "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID))",
                log, as: Int64.self) ?? 0)
            if oneTime.count > maximumOneTime - stored { return .tooMany(stored: stored) }
            for (kind, key) in [("spk", signed), ("pq", pq)] {
                guard let key else { continue }
                try await db.run(
                    """
                    UPDATE signed_prekeys SET key_id = \(Int64(key.id)), public_key = \(Data(key.publicKey)), signature = \(Data(key.signature))
                    WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID)) AND kind = \(kind)
                    """, log)
            }
            for (id, key) in oneTime {
                try await db.run(
                    "INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key) VALUES (\(accountID), \(Int64(deviceID)), \(id), \(key))",
                    log)
            }
            return .added(count: stored + oneTime.count)
        }
    }

    public func oneTimePreKeyCount(accountID: Int64, deviceID: UInt32) async throws -> Int {
        try await read { db, log in
            Int(try await db.scalar(
                "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = \(accountID) AND device_id = \(Int64(deviceID))",
                log, as: Int64.self) ?? 0)
        }
    }
}
