import Crypto
import Foundation
import ParleyWire

extension ParleyClient {
    /// Downloads the file of message `messageID`, checks the digest the sender put in the message and every
    /// chunk's authentication, and only then moves it to `destination` (replacing what is there).
    ///
    /// Memory stays at about one chunk; the plaintext goes to a temporary file beside `destination`, which is
    /// removed on any failure, so a tampered or truncated download never leaves a partial file.
    @discardableResult
    public func download(messageID: Int64, to destination: URL, options: AttachmentOptions = AttachmentOptions()) async throws(ClientError) -> Attachment {
        guard let message = try storedMessage(messageID), !message.deleted else {
            throw .invalidInput("message \(messageID) is not in this device's history")
        }
        guard let attachment = message.attachment else { throw .attachment(.noAttachment(messageID: messageID)) }
        // A device or named pipe (`/dev/null`, a FIFO) is written into, never replaced: its bytes wait in this
        // account's own directory until they checked out.
        let inPlace = Self.isDeviceOrPipe(destination)
        let temporary = (inPlace ? directory : destination.deletingLastPathComponent())
            .appendingPathComponent(".\(destination.lastPathComponent).parley-\(newClientMessageID().prefix(12))")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let output = try? FileHandle(forWritingTo: temporary)
        else { throw .attachment(.output("cannot create a file in \(destination.deletingLastPathComponent().path)")) }
        var closed = false, moved = false
        defer {
            if !closed { try? output.close() }
            if !moved { try? FileManager.default.removeItem(at: temporary) }
        }
        try await fetch(attachment, into: output, options: options)
        do {
            try output.synchronize()
            closed = true
            try output.close()
        } catch {
            throw .attachment(.output("cannot write \(temporary.path)"))
        }
        if inPlace {
            try Self.copy(temporary, into: destination)
            return attachment
        }
        // rename(2) replaces the target atomically: readers see the old file or the whole new one.
        guard rename(temporary.path, destination.path) == 0 else {
            throw .attachment(.output("cannot move the file into place at \(destination.path)"))
        }
        moved = true
        return attachment
    }

    /// Whether `url` names an existing device or named pipe, which a download writes into instead of replacing.
    static func isDeviceOrPipe(_ url: URL) -> Bool {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// Copies the checked plaintext at `source` into the device or pipe `destination`.
    private static func copy(_ source: URL, into destination: URL) throws(ClientError) {
        guard let input = try? FileHandle(forReadingFrom: source), let output = FileHandle(forWritingAtPath: destination.path) else {
            throw .attachment(.output("cannot write to \(destination.path)"))
        }
        defer {
            try? input.close()
            try? output.close()
        }
        do {
            while let chunk = try input.read(upToCount: 1 << 18), !chunk.isEmpty { try output.write(contentsOf: chunk) }
        } catch {
            throw .attachment(.output("cannot write to \(destination.path)"))
        }
    }

    /// Streams the encrypted file from the server through the opener into `output`.
    private func fetch(_ attachment: Attachment, into output: FileHandle, options: AttachmentOptions) async throws(ClientError) {
        let total = AttachmentFormat.ciphertextSize(plaintextSize: attachment.size)
        var opener: AttachmentOpener
        do { opener = try AttachmentOpener(key: Array(attachment.key), plaintextSize: attachment.size, ciphertextSize: total) } catch {
            throw .attachment(error)
        }
        var hasher = SHA256()
        var offset: Int64 = 0
        func write(_ bytes: [UInt8]) throws(ClientError) {
            do { try output.write(contentsOf: bytes) } catch { throw .attachment(.output("writing the downloaded file failed")) }
        }
        // When the connection first failed: all the waiting for it together is bounded by `reconnectWait`.
        var stalledSince: ContinuousClock.Instant?
        var pacer = TransferPacer()
        while offset < total {
            let answer: API.DownloadFile.Response
            let pause = pacer.delay(now: .now)
            if pause > .zero { try? await Task.sleep(for: pause) }
            do {
                answer = try await call(API.DownloadFile.self, .init(fileID: attachment.fileID, offset: offset, length: Int64(API.fileChunkSize)))
                pacer.accepted()
            } catch .server(let error) where error.code == .rateLimited {
                // Ask again after the server's retry_after (or a growing pause), at a slower pace.
                guard pacer.refused(error, now: .now) != nil else { throw .attachment(.serverBusy) }
                continue
            } catch .notConnected, .disconnected, .timeout {
                // Resume at our own offset once the connection is back.
                stalledSince = stalledSince ?? .now
                try await awaitConnection(until: stalledSince! + options.reconnectWait)
                await options.progress?(TransferProgress(done: offset, total: total, resumedAt: offset))
                continue
            } catch .server(let error) where error.code == .unauthenticated {
                stalledSince = stalledSince ?? .now
                try await pauseUntilLoggedIn(deadline: stalledSince! + options.reconnectWait)
                continue
            }
            stalledSince = nil
            // The server's size and digest must be the ones the sender announced end to end.
            guard answer.size == total else { throw .attachment(.malformed("the server holds a file of another size")) }
            guard answer.sha256 == Array(attachment.sha256) else { throw .attachment(.digestMismatch) }
            guard answer.offset == offset else { throw .badResponse("download_file answered another offset") }
            let chunk = answer.chunk
            guard !chunk.isEmpty, offset + Int64(chunk.count) <= total else { throw .attachment(.malformed("the server sent a chunk of the wrong size")) }
            hasher.update(data: chunk)
            offset += Int64(chunk.count)
            let plaintext: [UInt8]
            do { plaintext = try opener.feed(chunk[...]) } catch { throw .attachment(error) }
            try write(plaintext)
            await options.progress?(TransferProgress(done: offset, total: total))
        }
        // The digest first: the bytes must be exactly what the sender uploaded, then the last chunk must open.
        guard Array(hasher.finalize()) == Array(attachment.sha256) else { throw .attachment(.digestMismatch) }
        let last: [UInt8]
        do { last = try opener.finish() } catch { throw .attachment(error) }
        try write(last)
    }
}
