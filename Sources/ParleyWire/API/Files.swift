/// Chunked, resumable transfer of client-encrypted files (docs/API.md §8).
extension API {
    /// The largest chunk of ciphertext one `upload_file` or `download_file` carries (`upload_start` says it as
    /// `chunk_size`): at a connection's 40 requests a second, about 10 MiB/s.
    public static let fileChunkSize = 256 * 1024
    /// The chunk servers took and served before `fileChunkSize` grew, and what `download_file` sends when asked for
    /// no `length`: a client falls back to it when a server refuses a larger chunk.
    public static let smallFileChunkSize = 24 * 1024

    static let fileMethods: [any APIMethod.Type] = [UploadStart.self, UploadFile.self, UploadStatus.self, DownloadFile.self]

    /// A request that names one upload or file.
    public struct FileRef: WireBody {
        public var fileID: Int64
        public init(fileID: Int64) { self.fileID = fileID }
        public init(from fields: WireFields) throws(WireError) { fileID = try fields.integer("file_id") }
        public var fields: [String: JSONValue] { ["file_id": .int(fileID)] }
        public static let fieldNames = ["file_id"]
    }

    /// Announces an upload of `size` bytes to a conversation (`upload_start`).
    public enum UploadStart: APIMethod {
        public static let name = "upload_start"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var conversationID: Int64
            /// The ciphertext's length (1 to the server's limit, which the server checks).
            public var size: Int64
            public var sha256: [UInt8]
            public init(conversationID: Int64, size: Int64, sha256: [UInt8]) {
                self.conversationID = conversationID
                self.size = size
                self.sha256 = sha256
            }
            public init(from fields: WireFields) throws(WireError) {
                conversationID = try fields.integer("conversation_id")
                size = try fields.integer("size")
                sha256 = try fields.bytes("sha256", count: 32)
            }
            public var fields: [String: JSONValue] {
                ["conversation_id": .int(conversationID), "size": .int(size), "sha256": .base64(sha256)]
            }
            public static let fieldNames = ["conversation_id", "size", "sha256"]
        }

        public struct Response: WireBody {
            public var fileID: Int64
            public var chunkSize: Int64
            public init(fileID: Int64, chunkSize: Int64) {
                self.fileID = fileID
                self.chunkSize = chunkSize
            }
            public init(from fields: WireFields) throws(WireError) {
                fileID = try fields.integer("file_id")
                chunkSize = try fields.integer("chunk_size", in: 1...Int64.max)
            }
            public var fields: [String: JSONValue] { ["file_id": .int(fileID), "chunk_size": .int(chunkSize)] }
            public static let fieldNames = ["file_id", "chunk_size"]
        }
    }

    /// The next chunk of an upload, exactly at the received offset (`upload_file`).
    public enum UploadFile: APIMethod {
        public static let name = "upload_file"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var fileID: Int64
            public var offset: Int64
            public var chunk: [UInt8]
            public init(fileID: Int64, offset: Int64, chunk: [UInt8]) {
                self.fileID = fileID
                self.offset = offset
                self.chunk = chunk
            }
            public init(from fields: WireFields) throws(WireError) {
                fileID = try fields.integer("file_id")
                offset = try fields.integer("offset")
                chunk = try fields.bytes("chunk", maxBytes: API.fileChunkSize)
                guard !chunk.isEmpty else { throw .invalid("chunk", "must not be empty") }
            }
            public var fields: [String: JSONValue] { ["file_id": .int(fileID), "offset": .int(offset), "chunk": .base64(chunk)] }
            public static let fieldNames = ["file_id", "offset", "chunk"]
        }

        public struct Response: WireBody {
            public var received: Int64
            public var complete: Bool
            public init(received: Int64, complete: Bool) {
                self.received = received
                self.complete = complete
            }
            public init(from fields: WireFields) throws(WireError) {
                received = try fields.integer("received")
                complete = try fields.bool("complete")
            }
            public var fields: [String: JSONValue] { ["received": .int(received), "complete": .bool(complete)] }
            public static let fieldNames = ["received", "complete"]
        }
    }

    /// How much of one's own upload the server holds (`upload_status`).
    public enum UploadStatus: APIMethod {
        public static let name = "upload_status"
        public static let requiresLogin = true
        public typealias Request = FileRef

        public struct Response: WireBody {
            public var received: Int64
            public var size: Int64
            public var complete: Bool
            public init(received: Int64, size: Int64, complete: Bool) {
                self.received = received
                self.size = size
                self.complete = complete
            }
            public init(from fields: WireFields) throws(WireError) {
                received = try fields.integer("received")
                size = try fields.integer("size")
                complete = try fields.bool("complete")
            }
            public var fields: [String: JSONValue] { ["received": .int(received), "size": .int(size), "complete": .bool(complete)] }
            public static let fieldNames = ["received", "size", "complete"]
        }
    }

    /// A range of a complete file, for members of its conversation (`download_file`).
    public enum DownloadFile: APIMethod {
        public static let name = "download_file"
        public static let requiresLogin = true

        public struct Request: WireBody {
            public var fileID: Int64
            /// Where to start (0 when nil).
            public var offset: Int64?
            /// How many bytes at most (one chunk when nil).
            public var length: Int64?
            public init(fileID: Int64, offset: Int64? = nil, length: Int64? = nil) {
                self.fileID = fileID
                self.offset = offset
                self.length = length
            }
            public init(from fields: WireFields) throws(WireError) {
                fileID = try fields.integer("file_id")
                offset = try fields.optionalInteger("offset")
                length = try fields.optionalInteger("length", in: 1...Int64(API.fileChunkSize))
            }
            public var fields: [String: JSONValue] {
                var out: [String: JSONValue] = ["file_id": .int(fileID)]
                out.set("offset", offset.map(JSONValue.int))
                out.set("length", length.map(JSONValue.int))
                return out
            }
            public static let fieldNames = ["file_id", "offset?", "length?"]
        }

        public struct Response: WireBody {
            public var chunk: [UInt8]
            public var offset: Int64
            public var size: Int64
            public var sha256: [UInt8]
            public init(chunk: [UInt8], offset: Int64, size: Int64, sha256: [UInt8]) {
                self.chunk = chunk
                self.offset = offset
                self.size = size
                self.sha256 = sha256
            }
            public init(from fields: WireFields) throws(WireError) {
                chunk = try fields.bytes("chunk", maxBytes: API.fileChunkSize)
                offset = try fields.integer("offset")
                size = try fields.integer("size")
                sha256 = try fields.bytes("sha256", count: 32)
            }
            public var fields: [String: JSONValue] {
                ["chunk": .base64(chunk), "offset": .int(offset), "size": .int(size), "sha256": .base64(sha256)]
            }
            public static let fieldNames = ["chunk", "offset", "size", "sha256"]
        }
    }
}
