import Foundation
import PostgresNIO

extension PostgresStore {
    static func fileRecord(_ row: PostgresRandomAccessRow) throws -> FileRecord {
        FileRecord(
            id: try row.get("id"), ownerID: try row.get("owner_id"), conversationID: try row.get("conversation_id"),
            size: try row.get("size"), sha256: try row.bytes("sha256"), received: try row.get("received"),
            complete: try row.get("complete"))
    }

    public func createFile(ownerID: Int64, conversationID: Int64, size: Int64, sha256: [UInt8], quota: Int64, now: Int64) async throws -> FileRecord {
        try await transaction("file quota") { db, log in
            // Lock the owner's account row: two uploads started at once cannot both fit under the quota.
            try await db.run("SELECT 1 FROM accounts WHERE id = \(ownerID) FOR UPDATE", log)
            let used = try await db.scalar(
                "SELECT COALESCE(SUM(size), 0)::BIGINT FROM files WHERE owner_id = \(ownerID)", log, as: Int64.self) ?? 0
            guard used + size <= quota else { throw StoreError.conflict("file quota") }
            guard let id = try await db.scalar(
                """
                INSERT INTO files (owner_id, conversation_id, size, sha256, created_at)
                VALUES (\(ownerID), \(conversationID), \(size), \(Data(sha256)), \(now)) RETURNING id
                """, log, as: Int64.self)
            else { throw StoreError.unavailable("file insert returned no id") }
            return FileRecord(id: id, ownerID: ownerID, conversationID: conversationID, size: size, sha256: sha256, received: 0, complete: false)
        }
    }

    public func file(id: Int64) async throws -> FileRecord? {
        try await read { db, log in try await db.row("SELECT * FROM files WHERE id = \(id)", log).map(Self.fileRecord) }
    }

    public func appendChunk(fileID: Int64, offset: Int64, data: [UInt8]) async throws -> Int64 {
        try await transaction("file chunk") { db, log in
            // FOR UPDATE: a duplicated chunk racing the original sees the advanced offset and is refused.
            guard let row = try await db.row("SELECT * FROM files WHERE id = \(fileID) FOR UPDATE", log) else {
                throw StoreError.conflict("file")
            }
            let file = try Self.fileRecord(row)
            guard !file.complete, offset == file.received, file.received + Int64(data.count) <= file.size else {
                throw StoreError.conflict("chunk offset")
            }
            try await db.run("INSERT INTO file_chunks (file_id, chunk_offset, data) VALUES (\(fileID), \(offset), \(Data(data)))", log)
            try await db.run("UPDATE files SET received = received + \(Int64(data.count)) WHERE id = \(fileID)", log)
            return file.received + Int64(data.count)
        }
    }

    public func readFile(fileID: Int64, offset: Int64, length: Int) async throws -> [UInt8] {
        try await read { db, log in
            // Chunks start at the offsets they were uploaded at; take those overlapping the range.
            let end = offset + Int64(length)
            let rows = try await db.rows(
                """
                SELECT chunk_offset, data FROM file_chunks
                WHERE file_id = \(fileID) AND chunk_offset < \(end) AND chunk_offset + octet_length(data) > \(offset)
                ORDER BY chunk_offset
                """, log)
            var out: [UInt8] = []
            for row in rows {
                let start: Int64 = try row.get("chunk_offset")
                let data = try row.bytes("data")
                let from = Int(max(0, offset - start))
                let to = Int(min(Int64(data.count), end - start))
                if from < to { out.append(contentsOf: data[from..<to]) }
            }
            return out
        }
    }

    public func completeFile(fileID: Int64) async throws {
        try await transaction("file") { db, log in try await db.run("UPDATE files SET complete = TRUE WHERE id = \(fileID)", log) }
    }

    public func deleteFile(fileID: Int64) async throws {
        try await transaction("file") { db, log in
            try await db.run("DELETE FROM file_chunks WHERE file_id = \(fileID)", log)
            try await db.run("DELETE FROM files WHERE id = \(fileID)", log)
        }
    }
}
