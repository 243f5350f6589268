import Foundation
import GRDB

extension SQLiteStore {
    public func createPairing(_ pairing: PairingRecord, now: Int64, maximumOpen: Int) async throws -> Bool {
        try await write("pairing id") { db in
            try db.execute(sql: "DELETE FROM pairings WHERE expires_at < ?", arguments: [now])
            let open = try Int.fetchOne(db, sql: "SELECT count(*) FROM pairings WHERE email = ?", arguments: [pairing.email]) ?? 0
            guard open < maximumOpen else { return false }
            try db.execute(
                sql: """
                    INSERT INTO pairings (id, email, device_name, new_device_key, token_hash, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [Int64(pairing.id), pairing.email, pairing.deviceName, Data(pairing.newDeviceKey),
                            Data(pairing.tokenHash), pairing.expiresAt])
            return true
        }
    }

    public func pairing(id: UInt32, now: Int64) async throws -> PairingRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM pairings WHERE id = ? AND expires_at >= ?", arguments: [Int64(id), now])
                .map(Self.pairingRecord)
        }
    }

    public func sealPairing(id: UInt32, authorizingKey: [UInt8], keysBox: [UInt8], now: Int64) async throws -> Bool {
        try await write("pairing") { db in
            try db.execute(
                sql: """
                    UPDATE pairings SET authorizing_key = ?, keys_box = ?
                    WHERE id = ? AND expires_at >= ? AND keys_box IS NULL
                    """,
                arguments: [Data(authorizingKey), Data(keysBox), Int64(id), now])
            return db.changesCount == 1
        }
    }

    public func appendPairingChunk(id: UInt32, seq: Int, chunk: [UInt8], last: Bool, maximumBytes: Int, now: Int64) async throws -> PairingAppend {
        try await write("pairing chunk") { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT * FROM pairings WHERE id = ? AND expires_at >= ?", arguments: [Int64(id), now])
            else { return .notFound }
            let pairing = Self.pairingRecord(row)
            guard !pairing.isComplete else { return .closed }
            guard seq == pairing.chunkCount else { return .outOfOrder(stored: pairing.chunkCount) }
            guard pairing.chunkBytes + chunk.count <= maximumBytes else { return .tooLarge }
            try db.execute(
                sql: "INSERT INTO pairing_chunks (pairing_id, seq, data, is_last) VALUES (?, ?, ?, ?)",
                arguments: [Int64(id), seq, Data(chunk), last])
            try db.execute(
                sql: "UPDATE pairings SET chunk_count = chunk_count + 1, chunk_bytes = chunk_bytes + ?, complete = ? WHERE id = ?",
                arguments: [chunk.count, last, Int64(id)])
            return .stored(seq + 1)
        }
    }

    public func pairingChunk(id: UInt32, seq: Int, now: Int64) async throws -> (chunk: [UInt8], last: Bool)? {
        let found: (Data, Bool)? = try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT c.data, c.is_last FROM pairing_chunks c JOIN pairings p ON p.id = c.pairing_id
                    WHERE c.pairing_id = ? AND c.seq = ? AND p.expires_at >= ?
                    """,
                arguments: [Int64(id), seq, now]
            ).map { ($0["data"], $0["is_last"]) }
        }
        return found.map { (Array($0.0), $0.1) }
    }

    public func deletePairing(id: UInt32) async throws {
        try await write("pairing") { db in
            try db.execute(sql: "DELETE FROM pairings WHERE id = ?", arguments: [Int64(id)])
        }
    }

    static func pairingRecord(_ row: Row) -> PairingRecord {
        var record = PairingRecord(
            id: UInt32(row["id"] as Int64), email: row["email"], deviceName: row["device_name"],
            newDeviceKey: Array(row["new_device_key"] as Data), tokenHash: Array(row["token_hash"] as Data),
            expiresAt: row["expires_at"])
        record.authorizingKey = (row["authorizing_key"] as Data?).map(Array.init)
        record.keysBox = (row["keys_box"] as Data?).map(Array.init)
        record.deviceID = (row["device_id"] as Int64?).map { UInt32($0) }
        record.chunkCount = row["chunk_count"]
        record.chunkBytes = row["chunk_bytes"]
        record.isComplete = row["complete"]
        return record
    }
}
