import Foundation
import ParleyClientFormats
import ParleyImage
import ParleyWire

/// Sending a file's bytes: labels it, makes a preview, encrypts it under a fresh key into the account directory,
/// and uploads it in chunks, resuming after a crash or a dropped connection at the server's offset. It returns the
/// file message's content; sending that message (the ratchets) is the client's.
struct FileUploader: Sendable {
    typealias Dependencies = HasServer & HasDatabase & HasAccountDirectory & HasRandom & Sendable
    let dependencies: any Dependencies

    /// The largest piece per `upload_file` (API.md §8); a server that says less in `upload_start`, or refuses it
    /// on a resumed upload, gets `API.smallFileChunkSize`.
    static let piece = API.fileChunkSize

    /// The size of `file`, refused before anything is encrypted or uploaded when it is over `options.maximumSize`.
    static func checkedSize(of file: URL, options: AttachmentOptions) throws(ClientError) -> Int64 {
        let size = try LocalFile.regularFileSize(file)
        guard size <= options.maximumSize else { throw .attachment(.tooLarge(size: size, limit: options.maximumSize)) }
        return size
    }

    /// Encrypts (or finds the encrypted copy of an earlier attempt) and uploads `file` of `size` bytes for a
    /// message to `conversationID`; returns the file message's content, its client message id kept across attempts.
    func upload(_ file: URL, size: Int64, to conversationID: Int64, options: AttachmentOptions) async throws(ClientError) -> MessageContent {
        let uploads = PendingUploads(dependencies: dependencies)
        let recordKey = PendingUpload.recordKey(file: file, size: size, conversationID: conversationID)
        var pending: PendingUpload
        if let saved = try uploads.load(recordKey) {
            pending = saved
        } else {
            pending = try seal(file, size: size, options: options)
            try uploads.save(pending, recordKey)
        }
        let fileID: Int64
        do {
            fileID = try await send(&pending, recordKey: recordKey, conversationID: conversationID, options: options)
        } catch {
            // A connection problem keeps the encrypted copy and the record: sending again resumes.
            switch error {
            case .notConnected, .disconnected, .timeout, .attachment(.serverBusy): break
            default: uploads.discard(pending, recordKey)
            }
            throw error
        }
        let attachment = Attachment(
            fileID: fileID, key: pending.key, sha256: pending.sha256, size: size, name: pending.name, mimeType: pending.mimeType,
            thumbnail: pending.thumbnail, width: pending.width, height: pending.height)
        uploads.discard(pending, recordKey)
        return MessageContent(id: pending.id, type: "file", text: options.caption, file: attachment)
    }

    /// Labels, previews and encrypts `file` under a fresh key into the account directory.
    private func seal(_ file: URL, size: Int64, options: AttachmentOptions) throws(ClientError) -> PendingUpload {
        let name = options.name ?? file.lastPathComponent
        let mimeType = MimeType.detect(prefix: LocalFile.prefix(of: file, count: 4096), fileName: name)
        let thumbnail = Self.thumbnail(of: file, size: size, side: options.thumbnailSide)
        let key = dependencies.random.bytes(AttachmentFormat.keyLength)
        var pending = PendingUpload(
            id: dependencies.random.clientMessageID(), key: Data(key), sha256: Data(), ciphertextSize: 0, plaintextSize: size, name: name,
            mimeType: mimeType, thumbnail: thumbnail.map { Data($0.jpeg) }, width: thumbnail?.sourceWidth, height: thumbnail?.sourceHeight)
        // Checked before anything is encrypted or uploaded, with a placeholder digest of the right length.
        let probe = Attachment(fileID: 0, key: pending.key, sha256: Data(count: 32), size: size, name: name, mimeType: mimeType,
                               thumbnail: pending.thumbnail, width: pending.width, height: pending.height)
        guard probe.isValid else { throw .invalidInput("the file name must be 1–255 bytes without control characters") }
        let target = pending.ciphertextPath(in: dependencies.directory)
        do {
            let sealed = try AttachmentSealer.seal(file, plaintextSize: size, key: key,
                                                   salt: dependencies.random.bytes(AttachmentFormat.saltLength), to: target)
            pending.sha256 = Data(sealed.sha256)
            pending.ciphertextSize = sealed.size
        } catch {
            try? FileManager.default.removeItem(at: target)
            throw .attachment(error)
        }
        return pending
    }

    /// Uploads the encrypted copy, starting or resuming; returns the server's file id.
    private func send(_ pending: inout PendingUpload, recordKey: String, conversationID: Int64,
                      options: AttachmentOptions) async throws(ClientError) -> Int64 {
        let server = dependencies.server
        let total = pending.ciphertextSize
        var offset: Int64 = 0
        var piece = pending.pieceSize.map { min(Self.piece, max(1, $0)) } ?? API.smallFileChunkSize
        if let known = pending.fileID {
            do {
                offset = try await server.call(API.UploadStatus.self, .init(fileID: known)).received
                await options.progress?(TransferProgress(done: offset, total: total, resumedAt: offset))
            } catch .server(let error) where error.code == .notFound {
                pending.fileID = nil   // the server dropped it (a digest mismatch, a cleanup): start again
            }
        }
        if pending.fileID == nil {
            let start: API.UploadStart.Response
            do {
                start = try await server.call(API.UploadStart.self, .init(conversationID: conversationID, size: total, sha256: Array(pending.sha256)))
            } catch .server(let refusal) where refusal.code == .invalidField && refusal.details["maximum_size"] != nil {
                guard case .number(let limit)? = refusal.details["maximum_size"] else { throw .server(refusal) }
                throw .attachment(.overServerLimit(size: total, limit: Int64(limit)))
            }
            pending.fileID = start.fileID
            piece = Int(min(Int64(Self.piece), max(1, start.chunkSize)))
            pending.pieceSize = piece
            try PendingUploads(dependencies: dependencies).save(pending, recordKey)
        }
        let fileID = pending.fileID!
        guard let input = try? FileHandle(forReadingFrom: pending.ciphertextPath(in: dependencies.directory)) else {
            throw .attachment(.unreadable("the encrypted copy vanished"))
        }
        defer { try? input.close() }
        var pacer = TransferPacer()
        // What the server has acknowledged never shrinks: an answer that goes back, or does not take the piece just
        // sent, is a server that could otherwise keep this loop sending forever.
        var acknowledged = offset
        while offset < total {
            let chunk: Data
            do {
                try input.seek(toOffset: UInt64(offset))
                chunk = try input.read(upToCount: Int(min(Int64(piece), total - offset))) ?? Data()
            } catch {
                throw .attachment(.unreadable("reading the encrypted copy failed"))
            }
            let pause = pacer.delay(now: .now)
            if pause > .zero { try? await Task.sleep(for: pause) }
            do throws(ClientError) {
                let answer = try await server.call(API.UploadFile.self, .init(fileID: fileID, offset: offset, chunk: Array(chunk)))
                pacer.accepted()
                guard answer.received == offset + Int64(chunk.count) else {
                    throw .badResponse("upload_file acknowledged another part of the file than the one sent")
                }
                offset = answer.received
                await options.progress?(TransferProgress(done: offset, total: total))
            } catch .server(let error) where error.code == .rateLimited {
                // The same chunk again, after the server's retry_after (or a growing pause) and at a slower pace.
                guard pacer.refused(error, now: .now) != nil else { throw .attachment(.serverBusy) }
            } catch .notConnected, .disconnected, .timeout {
                offset = try await resumeOffset(fileID: fileID, options: options)
                guard offset >= acknowledged, offset <= total else {
                    throw .badResponse("after the reconnect the server holds less of the upload than it had acknowledged")
                }
                await options.progress?(TransferProgress(done: offset, total: total, resumedAt: offset))
            } catch .server(let error) where error.code == .invalidField && piece > API.smallFileChunkSize {
                // A server that no longer takes the piece it offered (replaced by one from before the larger chunks).
                piece = API.smallFileChunkSize
            } catch .server(let error) where error.code == .conflict {
                // Another attempt got further than we knew (an answer lost with the connection).
                guard case .number(let received)? = error.details["received"], let at = Int64(exactly: received) else { throw .server(error) }
                guard at > offset, at <= total else { throw .badResponse("upload_file refused the piece without holding more of the file") }
                offset = at
            }
            acknowledged = max(acknowledged, offset)
        }
        return fileID
    }

    /// Waits for the connection to come back, then asks the server how much of the upload it has.
    private func resumeOffset(fileID: Int64, options: AttachmentOptions) async throws(ClientError) -> Int64 {
        let deadline = ContinuousClock.now + options.reconnectWait
        while true {
            try await dependencies.server.awaitConnection(until: deadline)
            do {
                return try await dependencies.server.call(API.UploadStatus.self, .init(fileID: fileID)).received
            } catch .notConnected, .disconnected, .timeout {
                continue
            } catch .server(let error) where error.code == .unauthenticated {
                try await dependencies.server.pauseForLogin(until: deadline)
            }
        }
    }

    /// A thumbnail for JPEG and PNG files up to 32 MiB; nil for anything else or an image that does not decode
    /// (the file is still sent, just without a preview).
    static func thumbnail(of url: URL, size: Int64, side: Int) -> Thumbnail? {
        guard size <= 32 << 20, ImageCodec.format(of: LocalFile.prefix(of: url, count: 8)) != nil,
              let bytes = try? Data(contentsOf: url), let thumbnail = try? Thumbnail.make(from: Array(bytes), maxSide: side),
              thumbnail.jpeg.count <= Attachment.maximumThumbnail
        else { return nil }
        return thumbnail
    }
}
