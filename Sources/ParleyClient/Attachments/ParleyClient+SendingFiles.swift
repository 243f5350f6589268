import Foundation
import ParleyImage
import ParleyWire

extension ParleyClient {
    /// Encrypts `file` with a fresh key, uploads it in chunks (resuming after a dropped connection), then
    /// sends a message carrying its id, key, digest, size, name, type and, for images, a thumbnail.
    ///
    /// A file over `options.maximumSize` is refused before anything is uploaded. Needs a connection to
    /// start; an interruption later waits up to `options.reconnectWait` for the client to reconnect.
    public func send(file: URL, to conversationID: Int64, options: AttachmentOptions = AttachmentOptions()) async throws(ClientError) -> SendOutcome {
        let size = try Self.regularFileSize(file)
        guard size <= options.maximumSize else { throw .attachment(.tooLarge(size: size, limit: options.maximumSize)) }
        guard isConnected else { throw .notConnected }
        let name = options.name ?? file.lastPathComponent
        let prefix = Self.prefix(of: file, count: 4096)
        let mimeType = MimeType.detect(prefix: prefix, fileName: name)
        let thumbnail = Self.thumbnail(of: file, size: size, side: options.thumbnailSide)

        let key = dependencies.random.bytes(AttachmentFormat.keyLength)
        let salt = dependencies.random.bytes(AttachmentFormat.saltLength)
        let id = newClientMessageID()
        let temporary = directory.appendingPathComponent("upload-\(id).prla")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let sealed: AttachmentSealer.Sealed
        do { sealed = try AttachmentSealer.seal(file, plaintextSize: size, key: key, salt: salt, to: temporary) } catch { throw .attachment(error) }

        let fileID = try await upload(sealed, conversationID: conversationID, options: options)
        let attachment = Attachment(
            fileID: fileID, key: Data(key), sha256: Data(sealed.sha256), size: size, name: name, mimeType: mimeType,
            thumbnail: thumbnail.map { Data($0.jpeg) }, width: thumbnail?.sourceWidth, height: thumbnail?.sourceHeight)
        guard attachment.isValid else { throw .invalidInput("the file name must be 1–255 bytes without control characters") }
        let content = MessageContent(id: id, type: "file", text: options.caption, file: attachment)
        return try await enqueue(OutboxEntry(conversationID: conversationID, content: content,
                                             kind: attachment.isImage ? "image" : "file", forwardOf: nil, created: dependencies.clock.now()))
    }

    /// Uploads an encrypted file; returns its server id.
    private func upload(_ sealed: AttachmentSealer.Sealed, conversationID: Int64, options: AttachmentOptions) async throws(ClientError) -> Int64 {
        let start = try await call("upload_start", ["conversation_id": .int(conversationID), "size": .int(sealed.size),
                                                    "sha256": .base64(sealed.sha256)])
        let fileID = try start.int("file_id")
        let chunkSize = Int(min(max(start.optionalInt("chunk_size") ?? 24_576, 1024), 24_576))
        guard let input = try? FileHandle(forReadingFrom: sealed.path) else { throw .attachment(.unreadable("the encrypted copy vanished")) }
        defer { try? input.close() }
        var offset: Int64 = 0
        while offset < sealed.size {
            let chunk: Data
            do {
                try input.seek(toOffset: UInt64(offset))
                chunk = try input.read(upToCount: Int(min(Int64(chunkSize), sealed.size - offset))) ?? Data()
            } catch {
                throw .attachment(.unreadable("reading the encrypted copy failed"))
            }
            do {
                let answer = try await call("upload_file", ["file_id": .int(fileID), "offset": .int(offset), "chunk": .base64(Array(chunk))])
                offset = try answer.int("received")
                await options.progress?(TransferProgress(done: offset, total: sealed.size))
            } catch .notConnected, .disconnected, .timeout {
                offset = try await resumeOffset(fileID: fileID, options: options)
                await options.progress?(TransferProgress(done: offset, total: sealed.size, resumedAt: offset))
            } catch .server(let error) where error.code == .conflict {
                // Another attempt got further than we knew (an answer lost with the connection).
                guard case .number(let received)? = error.details["received"], let at = Int64(exactly: received) else { throw .server(error) }
                offset = at
            }
        }
        return fileID
    }

    /// Waits for the connection to come back, then asks the server how much of the upload it has.
    private func resumeOffset(fileID: Int64, options: AttachmentOptions) async throws(ClientError) -> Int64 {
        let deadline = ContinuousClock.now + options.reconnectWait
        while true {
            try await awaitConnection(until: deadline)
            do {
                return try await call("upload_status", ["file_id": .int(fileID)]).int("received")
            } catch .notConnected, .disconnected, .timeout {
                continue
            } catch .server(let error) where error.code == .unauthenticated {
                try await pauseUntilLoggedIn(deadline: deadline)
            }
        }
    }

    /// Returns once connected; throws `notConnected` when reconnecting is off or the deadline passes.
    func awaitConnection(until deadline: ContinuousClock.Instant) async throws(ClientError) {
        while !isConnected {
            guard wantsConnection, ContinuousClock.now < deadline else { throw .notConnected }
            if reconnectTask == nil { connectionLost(generation: connectionGeneration) }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The socket is back but the login is still under way: wait a moment (up to `deadline`).
    func pauseUntilLoggedIn(deadline: ContinuousClock.Instant) async throws(ClientError) {
        guard ContinuousClock.now < deadline else { throw .notConnected }
        try? await Task.sleep(for: .milliseconds(50))
    }

    /// The size of a regular file, or a clear error.
    static func regularFileSize(_ url: URL) throws(ClientError) -> Int64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw .attachment(.unreadable("\(url.path) does not exist or cannot be read"))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber else {
            throw .attachment(.unreadable("\(url.path) is not a regular file"))
        }
        return size.int64Value
    }

    static func prefix(of url: URL, count: Int) -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return [] }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: count)) ?? Data())
    }

    /// A thumbnail for JPEG and PNG files up to 32 MiB; nil for anything else or an image that does not decode
    /// (the file is still sent, just without a preview).
    static func thumbnail(of url: URL, size: Int64, side: Int) -> Thumbnail? {
        guard size <= 32 << 20, ImageCodec.format(of: prefix(of: url, count: 8)) != nil,
              let bytes = try? Data(contentsOf: url), let thumbnail = try? Thumbnail.make(from: Array(bytes), maxSide: side),
              thumbnail.jpeg.count <= Attachment.maximumThumbnail
        else { return nil }
        return thumbnail
    }
}
