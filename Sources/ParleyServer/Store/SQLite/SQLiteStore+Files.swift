import Foundation
import GRDB

extension SQLiteStore {
    static func fileRecord(_ row: Row) -> FileRecord {
        FileRecord(
            id: row["id"], ownerID: row["owner_id"], conversationID: row["conversation_id"], size: row["size"],
            sha256: Array(row["sha256"] as Data), received: row["received"], complete: row["complete"])
    }

    public func createFile(ownerID: Int64, conversationID: Int64, size: Int64, sha256: [UInt8], quota: Int64, now: Int64) async throws -> FileRecord {
        try await write("file quota") { db in
            let used = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(size), 0) FROM files WHERE owner_id = ?", arguments: [ownerID]) ?? 0
            guard used + size <= quota else { throw StoreError.conflict("file quota") }
            try db.execute(
                sql: "INSERT INTO files (owner_id, conversation_id, size, sha256, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [ownerID, conversationID, size, Data(sha256), now])
            return FileRecord(id: db.lastInsertedRowID, ownerID: ownerID, conversationID: conversationID, size: size,
                              sha256: sha256, received: 0, complete: false)
        }
    }

    public func file(id: Int64) async throws -> FileRecord? {
        try await read { db in try Row.fetchOne(db, sql: "SELECT * FROM files WHERE id = ?", arguments: [id]).map(Self.fileRecord) }
    }

    public func appendChunk(fileID: Int64, offset: Int64, data: [UInt8]) async throws -> Int64 {
        try await write("file chunk") { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM files WHERE id = ?", arguments: [fileID]) else {
                throw StoreError.conflict("file")
            }
            let file = Self.fileRecord(row)
            guard !file.complete, offset == file.received, file.received + Int64(data.count) <= file.size else {
                throw StoreError.conflict("chunk offset")
            }
            try db.execute(sql: "INSERT INTO file_chunks (file_id, offset, data) VALUES (?, ?, ?)", arguments: [fileID, offset, Data(data)])
            try db.execute(sql: "UPDATE files SET received = received + ? WHERE id = ?", arguments: [data.count, fileID])
            return file.received + Int64(data.count)
        }
    }

    public func readFile(fileID: Int64, offset: Int64, length: Int) async throws -> [UInt8] {
        try await read { db in
            // Chunks start at the offsets they were uploaded at; take those overlapping the range.
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT offset, data FROM file_chunks WHERE file_id = ? AND offset < ? AND offset + LENGTH(data) > ? ORDER BY offset",
                arguments: [fileID, offset + Int64(length), offset])
            var out: [UInt8] = []
            for row in rows {
                let start: Int64 = row["offset"]
                let data = Array(row["data"] as Data)
                let from = Int(max(0, offset - start))
                let to = Int(min(Int64(data.count), offset + Int64(length) - start))
                if from < to { out.append(contentsOf: data[from..<to]) }
            }
            return out
        }
    }

    public func completeFile(fileID: Int64) async throws {
        try await write("file") { db in try db.execute(sql: "UPDATE files SET complete = 1 WHERE id = ?", arguments: [fileID]) }
    }

    public func deleteFile(fileID: Int64) async throws {
        try await write("file") { db in
            try db.execute(sql: "DELETE FROM file_chunks WHERE file_id = ?", arguments: [fileID])
            try db.execute(sql: "DELETE FROM files WHERE id = ?", arguments: [fileID])
        }
    }
}
