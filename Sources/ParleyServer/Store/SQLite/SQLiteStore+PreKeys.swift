import Foundation
import GRDB

extension SQLiteStore {
    public func takeKeyBundles(accountID: Int64, takingOneTime: Bool) async throws -> [KeyBundle] {
        try await write("key bundle") { db in
            let devices = try Int64.fetchAll(db, sql: "SELECT device_id FROM devices WHERE account_id = ? ORDER BY device_id", arguments: [accountID])
            return try devices.compactMap { device -> KeyBundle? in
                let signed = try Row.fetchAll(
                    db, sql: "SELECT * FROM signed_prekeys WHERE account_id = ? AND device_id = ?", arguments: [accountID, device])
                func key(_ kind: String) -> PreKeyUpload.Signed? {
                    signed.first { ($0["kind"] as String) == kind }.map {
                        PreKeyUpload.Signed(
                            id: UInt32($0["key_id"] as Int64), publicKey: Array($0["public_key"] as Data),
                            signature: Array($0["signature"] as Data))
                    }
                }
                guard let spk = key("spk"), let pq = key("pq") else { return nil }
                var oneTime: (UInt32, [UInt8])?
                if takingOneTime, let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM one_time_prekeys WHERE account_id = ? AND device_id = ? ORDER BY key_id LIMIT 1",
                    arguments: [accountID, device])
                {
                    let id: Int64 = row["key_id"]
                    oneTime = (UInt32(id), Array(row["public_key"] as Data))
                    try db.execute(
                        sql: "DELETE FROM one_time_prekeys WHERE account_id = ? AND device_id = ? AND key_id = ?",
                        arguments: [accountID, device, id])
                }
                return KeyBundle(deviceID: UInt32(device), signedPreKey: spk, pqPreKey: pq, oneTimePreKey: oneTime)
            }
        }
    }

    public func addPreKeys(
        accountID: Int64, deviceID: UInt32, signed: PreKeyUpload.Signed?, pq: PreKeyUpload.Signed?,
        oneTime: [(id: UInt32, publicKey: [UInt8])], maximumOneTime: Int
    ) async throws -> PreKeyAddition {
        let oneTime = oneTime.map { ($0.id, $0.publicKey) }
        return try await write("a one-time prekey with this id") { db in
            let stored = try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = ? AND device_id = ?",
                arguments: [accountID, Int64(deviceID)]) ?? 0
            if oneTime.count > maximumOneTime - stored { return .tooMany(stored: stored) }
            for (kind, key) in [("spk", signed), ("pq", pq)] {
                guard let key else { continue }
                try db.execute(
                    sql: """
                        UPDATE signed_prekeys SET key_id = ?, public_key = ?, signature = ?
                        WHERE account_id = ? AND device_id = ? AND kind = ?
                        """,
                    arguments: [Int64(key.id), Data(key.publicKey), Data(key.signature), accountID, Int64(deviceID), kind])
            }
            for (id, key) in oneTime {
                try db.execute(
                    sql: "INSERT INTO one_time_prekeys (account_id, device_id, key_id, public_key) VALUES (?, ?, ?, ?)",
                    arguments: [accountID, Int64(deviceID), Int64(id), Data(key)])
            }
            return .added(count: stored + oneTime.count)
        }
    }

    public func oneTimePreKeyCount(accountID: Int64, deviceID: UInt32) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM one_time_prekeys WHERE account_id = ? AND device_id = ?",
                arguments: [accountID, Int64(deviceID)]) ?? 0
        }
    }
}
