import Crypto
import Foundation
import ParleyWire

/// Chunked, resumable transfer of client-encrypted files, readable by the conversation's members.
enum FileHandlers {
    /// The largest chunk of ciphertext per request.
    static let chunkSize = 24 * 1024

    static func register(in router: inout RequestRouter) {
        router.add("upload_start", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let conversation = try await ConversationAccess.activeConversation(request, caller, context)
            let size = try request.integer("size", in: 1...context.configuration.maximumFileSize)
            let quota = context.configuration.fileQuota
            let digest = try request.bytes("sha256", count: 32)
            do {
                let file = try await context.store.createFile(
                    ownerID: caller.accountID, conversationID: conversation.id, size: size, sha256: digest, quota: quota, now: context.clock.now())
                return HandlerResult(["file_id": .number(Double(file.id)), "chunk_size": .number(Double(chunkSize))])
            } catch StoreError.conflict {
                throw WireError(.quotaExceeded, "this upload would pass your storage quota of \(quota >> 20) MiB; delete files or send a smaller one")
            } catch {
                throw AuthHandlers.storeFailure(error, context)
            }
        }
        router.add("upload_file", requiresLogin: true) { request, environment, context throws(WireError) in
            let file = try await ownFile(request, environment.caller!, context)
            let offset = try request.integer("offset")
            let chunk = try request.bytes("chunk", maxBytes: chunkSize)
            guard !chunk.isEmpty else { throw .invalid("chunk", "must not be empty") }
            guard !file.complete else { throw WireError(.conflict, "the upload is already complete") }
            guard offset == file.received else {
                throw WireError(.conflict, "resume at offset \(file.received)", details: ["received": .number(Double(file.received))])
            }
            guard offset + Int64(chunk.count) <= file.size else { throw .invalid("chunk", "goes past the declared size") }
            let received = try await StoreCall.call(context) { try await context.store.appendChunk(fileID: file.id, offset: offset, data: chunk) }
            if received == file.size {
                try await finish(file, context)
                return HandlerResult(["received": .number(Double(received)), "complete": true])
            }
            return HandlerResult(["received": .number(Double(received)), "complete": false])
        }
        router.add("upload_status", requiresLogin: true) { request, environment, context throws(WireError) in
            let file = try await ownFile(request, environment.caller!, context)
            return HandlerResult(["received": .number(Double(file.received)), "size": .number(Double(file.size)), "complete": .bool(file.complete)])
        }
        router.add("download_file", requiresLogin: true) { request, environment, context throws(WireError) in
            let caller = environment.caller!
            let id = try request.integer("file_id")
            let file = try await StoreCall.call(context) { try await context.store.file(id: id) }
            guard let file, file.complete else { throw WireError(.notFound, "no such file") }
            do {
                _ = try await ConversationAccess.activeConversation(id: file.conversationID, caller, context)
            } catch {
                throw WireError(.notFound, "no such file")
            }
            let offset = try request.optionalInteger("offset", in: 0...file.size) ?? 0
            let length = Int(try request.optionalInteger("length", in: 1...Int64(chunkSize)) ?? Int64(chunkSize))
            let bytes = try await StoreCall.call(context) { try await context.store.readFile(fileID: file.id, offset: offset, length: length) }
            return HandlerResult([
                "chunk": .string(Data(bytes).base64EncodedString()), "offset": .number(Double(offset)),
                "size": .number(Double(file.size)), "sha256": .string(Data(file.sha256).base64EncodedString()),
            ])
        }
    }

    /// Checks the whole upload against its declared SHA-256; a mismatch deletes it.
    static func finish(_ file: FileRecord, _ context: ServerContext) async throws(WireError) {
        var hasher = SHA256()
        var offset: Int64 = 0
        while offset < file.size {
            let chunk = try await StoreCall.call(context) { try await context.store.readFile(fileID: file.id, offset: offset, length: 1 << 20) }
            guard !chunk.isEmpty else { break }
            hasher.update(data: chunk)
            offset += Int64(chunk.count)
        }
        guard Array(hasher.finalize()) == file.sha256 else {
            try await StoreCall.call(context) { try await context.store.deleteFile(fileID: file.id) }
            throw WireError(.invalidField, "the uploaded bytes do not match sha256; the upload was discarded, start again")
        }
        try await StoreCall.call(context) { try await context.store.completeFile(fileID: file.id) }
    }

    /// An upload of the caller's own; other people's uploads do not exist for them.
    static func ownFile(_ request: WireRequest, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> FileRecord {
        let id = try request.integer("file_id")
        let file = try await StoreCall.call(context) { try await context.store.file(id: id) }
        guard let file, file.ownerID == caller.accountID else { throw WireError(.notFound, "no such upload") }
        return file
    }
}
