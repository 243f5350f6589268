import Crypto
import Foundation
import ParleyWire

/// Chunked, resumable transfer of client-encrypted files, readable by the conversation's members.
enum FileHandlers {
    /// The chunk `upload_start` offers: the largest (`API.fileChunkSize`), or what fits a request line of an operator's
    /// smaller `--max-line` in base64 with room for the request's other fields, in whole KiB.
    static func chunkSize(maximumLineLength: Int) -> Int {
        let fits = (maximumLineLength - 512) / 4 * 3 / 1024 * 1024
        return min(API.fileChunkSize, max(1024, fits))
    }

    static func register(in router: inout RequestRouter) {
        router.add(API.UploadStart.self) { request, environment, context throws(WireError) in
            let caller = environment.account
            let conversation = try await ConversationAccess.activeConversation(id: request.conversationID, caller, context)
            let limit = context.configuration.maximumFileSize
            guard (1...limit).contains(request.size) else {
                // The limit in the details, so a client can say it in its own words (docs/API.md §8).
                throw WireError(.invalidField, "field 'size' must be between 1 and \(limit)", details: ["maximum_size": .int(limit)])
            }
            let quota = context.configuration.fileQuota
            do {
                let file = try await context.store.createFile(
                    ownerID: caller.accountID, conversationID: conversation.id, size: request.size, sha256: request.sha256, quota: quota,
                    now: context.clock.now())
                return API.UploadStart.Response(fileID: file.id, chunkSize: Int64(chunkSize(maximumLineLength: context.configuration.maximumLineLength)))
            } catch StoreError.conflict {
                throw WireError(.quotaExceeded, "this upload would pass your storage quota of \(quota >> 20) MiB; delete files or send a smaller one")
            } catch {
                throw AuthHandlers.storeFailure(error, context)
            }
        }
        router.add(API.UploadFile.self) { request, environment, context throws(WireError) in
            let file = try await ownFile(request.fileID, environment.account, context)
            // Only while the uploader is still in the conversation: one removed (or gone) mid-upload must not finish a
            // file its members can then download (found by an outside probe). Answered as for no upload at all.
            do {
                _ = try await ConversationAccess.activeConversation(id: file.conversationID, environment.account, context)
            } catch {
                throw WireError(.notFound, "no such upload")
            }
            let chunk = request.chunk
            guard !file.complete else { throw WireError(.conflict, "the upload is already complete") }
            guard request.offset == file.received else {
                throw WireError(.conflict, "resume at offset \(file.received)", details: ["received": .int(file.received)])
            }
            guard request.offset + Int64(chunk.count) <= file.size else { throw .invalid("chunk", "goes past the declared size") }
            let received = try await StoreCall.call(context) { try await context.store.appendChunk(fileID: file.id, offset: request.offset, data: chunk) }
            if received == file.size { try await finish(file, context) }
            return API.UploadFile.Response(received: received, complete: received == file.size)
        }
        router.add(API.UploadStatus.self) { request, environment, context throws(WireError) in
            let file = try await ownFile(request.fileID, environment.account, context)
            return API.UploadStatus.Response(received: file.received, size: file.size, complete: file.complete)
        }
        router.add(API.DownloadFile.self) { request, environment, context throws(WireError) in
            let file = try await StoreCall.call(context) { try await context.store.file(id: request.fileID) }
            guard let file, file.complete else { throw WireError(.notFound, "no such file") }
            do {
                _ = try await ConversationAccess.activeConversation(id: file.conversationID, environment.account, context)
            } catch {
                throw WireError(.notFound, "no such file")
            }
            let offset = request.offset ?? 0
            guard offset <= file.size else { throw .invalid("offset", "must be between 0 and \(file.size)") }
            let length = Int(request.length ?? Int64(API.smallFileChunkSize))
            let bytes = try await StoreCall.call(context) { try await context.store.readFile(fileID: file.id, offset: offset, length: length) }
            return API.DownloadFile.Response(chunk: bytes, offset: offset, size: file.size, sha256: file.sha256)
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
    static func ownFile(_ id: Int64, _ caller: Caller, _ context: ServerContext) async throws(WireError) -> FileRecord {
        let file = try await StoreCall.call(context) { try await context.store.file(id: id) }
        guard let file, file.ownerID == caller.accountID else { throw WireError(.notFound, "no such upload") }
        return file
    }
}
