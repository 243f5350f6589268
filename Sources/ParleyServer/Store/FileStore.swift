/// An uploaded (or uploading) client-encrypted file.
public struct FileRecord: Sendable, Equatable {
    public var id: Int64
    public var ownerID: Int64
    public var conversationID: Int64
    public var size: Int64
    public var sha256: [UInt8]
    public var received: Int64
    public var complete: Bool
}

/// Chunked, resumable storage of client-encrypted files.
public protocol FileStore: Sendable {
    /// Starts an upload; throws `.conflict` if it would exceed `quota` bytes for the owner.
    func createFile(ownerID: Int64, conversationID: Int64, size: Int64, sha256: [UInt8], quota: Int64, now: Int64) async throws -> FileRecord

    /// A file by id.
    func file(id: Int64) async throws -> FileRecord?

    /// Appends a chunk at `offset`, which must equal the bytes received so far; returns the new count.
    /// Refuses a chunk that would pass the declared size.
    func appendChunk(fileID: Int64, offset: Int64, data: [UInt8]) async throws -> Int64

    /// Reads up to `length` bytes at `offset`.
    func readFile(fileID: Int64, offset: Int64, length: Int) async throws -> [UInt8]

    /// Marks the file complete.
    func completeFile(fileID: Int64) async throws

    /// Deletes a file and its chunks (a failed digest check).
    func deleteFile(fileID: Int64) async throws
}
