import Foundation
import PostgresNIO

extension PostgresStore {
    public func createPairing(_ pairing: PairingRecord, now: Int64, maximumOpen: Int) async throws -> Bool {
        try await transaction("pairing id") { db, log in
            try await db.run("DELETE FROM pairings WHERE expires_at < \(now)", log)
            // Serialise creations per e-mail so two at once cannot both pass the limit.
            try await db.run("SELECT pg_advisory_xact_lock(hashtext(\(pairing.email)))", log)
            let open = try await db.scalar("SELECT count(*) FROM pairings WHERE email = \(pairing.email)", log, as: Int64.self) ?? 0
            guard open < maximumOpen else { return false }
            try await db.run(
                """
                INSERT INTO pairings (id, email, device_name, new_device_key, token_hash, expires_at)
                VALUES (\(Int64(pairing.id)), \(pairing.email), \(pairing.deviceName), \(Data(pairing.newDeviceKey)),
                    \(Data(pairing.tokenHash)), \(pairing.expiresAt))
                """, log)
            return true
        }
    }

    public func pairing(id: UInt32, now: Int64) async throws -> PairingRecord? {
        try await read { db, log in
            try await db.row("SELECT * FROM pairings WHERE id = \(Int64(id)) AND expires_at >= \(now)", log).map(Self.pairingRecord)
        }
    }

    public func sealPairing(id: UInt32, authorizingKey: [UInt8], keysBox: [UInt8], now: Int64) async throws -> Bool {
        try await transaction("pairing") { db, log in
            let updated = try await db.scalar(
                """
                UPDATE pairings SET authorizing_key = \(Data(authorizingKey)), keys_box = \(Data(keysBox))
                WHERE id = \(Int64(id)) AND expires_at >= \(now) AND keys_box IS NULL RETURNING id
                """, log, as: Int64.self)
            return updated != nil
        }
    }

    public func appendPairingChunk(id: UInt32, seq: Int, chunk: [UInt8], last: Bool, maximumBytes: Int, now: Int64) async throws -> PairingAppend {
        try await transaction("pairing chunk") { db, log in
            guard let row = try await db.row(
                "SELECT * FROM pairings WHERE id = \(Int64(id)) AND expires_at >= \(now) FOR UPDATE", log)
            else { return .notFound }
            let pairing = try Self.pairingRecord(row)
            guard !pairing.isComplete else { return .closed }
            guard seq == pairing.chunkCount else { return .outOfOrder(stored: pairing.chunkCount) }
            guard pairing.chunkBytes + chunk.count <= maximumBytes else { return .tooLarge }
            try await db.run(
                "INSERT INTO pairing_chunks (pairing_id, seq, data, is_last) VALUES (\(Int64(id)), \(Int64(seq)), \(Data(chunk)), \(last))",
                log)
            try await db.run(
                """
                UPDATE pairings SET chunk_count = chunk_count + 1, chunk_bytes = chunk_bytes + \(Int64(chunk.count)), complete = \(last)
                WHERE id = \(Int64(id))
                """, log)
            return .stored(seq + 1)
        }
    }

    public func pairingChunk(id: UInt32, seq: Int, now: Int64) async throws -> (chunk: [UInt8], last: Bool)? {
        let found: (Data, Bool)? = try await read { db, log in
            guard let row = try await db.row(
                """
                SELECT c.data, c.is_last FROM pairing_chunks c JOIN pairings p ON p.id = c.pairing_id
                WHERE c.pairing_id = \(Int64(id)) AND c.seq = \(Int64(seq)) AND p.expires_at >= \(now)
                """, log)
            else { return nil }
            return (Data(try row.bytes("data")), try row.get("is_last", as: Bool.self))
        }
        return found.map { (Array($0.0), $0.1) }
    }

    public func deletePairing(id: UInt32) async throws {
        try await transaction("pairing") { db, log in
            try await db.run("DELETE FROM pairings WHERE id = \(Int64(id))", log)
        }
    }

    static func pairingRecord(_ row: PostgresRandomAccessRow) throws -> PairingRecord {
        var record = PairingRecord(
            id: UInt32(truncatingIfNeeded: try row.get("id", as: Int64.self)), email: try row.get("email"),
            deviceName: try row.get("device_name"), newDeviceKey: try row.bytes("new_device_key"),
            tokenHash: try row.bytes("token_hash"), expiresAt: try row.get("expires_at"))
        record.authorizingKey = try row.optionalBytes("authorizing_key")
        record.keysBox = try row.optionalBytes("keys_box")
        record.deviceID = try row.get("device_id", as: Int64?.self).map { UInt32(truncatingIfNeeded: $0) }
        record.chunkCount = Int(try row.get("chunk_count", as: Int64.self))
        record.chunkBytes = Int(try row.get("chunk_bytes", as: Int64.self))
        record.isComplete = try row.get("complete")
        return record
    }
}
