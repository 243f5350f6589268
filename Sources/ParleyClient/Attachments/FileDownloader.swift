import Crypto
import Foundation
import ParleyClientFormats
import ParleyFiles
import ParleyWire

/// Saving a received file: streams the encrypted file from the server through the opener, checks the digest the
/// sender put in the message and every chunk's authentication, and only then puts the plaintext in place.
///
/// Memory stays at about one chunk; the plaintext goes to a file without a name beside the destination
/// (`AtomicOutput`), named only after every check, so neither a tampered or truncated download nor a killed process
/// leaves a partial file. For a device, a pipe or standard output
/// it waits in a sealed scratch file instead (never in the clear on the disk) and is written out after the checks.
struct FileDownloader: Sendable {
    typealias Dependencies = HasServer & HasRandom & Sendable
    let dependencies: any Dependencies

    /// Downloads `attachment` into `destination`: a regular file is replaced atomically; a device or named pipe
    /// (`/dev/null`, a FIFO) is written into, never replaced.
    func download(_ attachment: Attachment, to destination: URL, options: AttachmentOptions) async throws(ClientError) {
        if LocalFile.isDeviceOrPipe(destination) {
            let scratch = try await fetchSealed(attachment, options: options)
            try await LocalFile.releaseOnItsOwnThread(scratch, into: destination)
            return
        }
        let output: AtomicOutput
        do throws(FilePathError) { output = try AtomicOutput(path: destination.path, force: true, mode: 0o600) } catch {
            throw .attachment(.output("cannot create a file in \(destination.deletingLastPathComponent().path)"))
        }
        do {
            try await fetch(attachment, options: options) { bytes throws(ClientError) in
                do { try bytes.withUnsafeBytes { try output.stream.write($0) } } catch { throw .attachment(.output("writing the downloaded file failed")) }
            }
        } catch {
            output.discard()
            throw error
        }
        // Named only now, replacing the target atomically: readers see the old file or the whole new one.
        do throws(FilePathError) { try output.commit() } catch { throw .attachment(.output(error.description)) }
    }

    /// Downloads `attachment` and writes it into `output` (standard output, a pipe) once every check passed.
    func download(_ attachment: Attachment, into output: FileHandle, options: AttachmentOptions) async throws(ClientError) {
        let scratch = try await fetchSealed(attachment, options: options)
        try await LocalFile.releaseOnItsOwnThread(scratch, into: output)
    }

    /// Downloads `attachment` into a sealed scratch file (`SealedScratch`: unlinked, and sealed under a key only this
    /// process holds), where the plaintext waits for the checks at the end without ever lying on the disk in the clear.
    private func fetchSealed(_ attachment: Attachment, options: AttachmentOptions) async throws(ClientError) -> SealedScratch {
        let scratch: SealedScratch
        do throws(SealedScratch.Failure) { scratch = try SealedScratch() } catch { throw .attachment(.output(error.description)) }
        try await fetch(attachment, options: options) { bytes throws(ClientError) in
            do throws(SealedScratch.Failure) { try scratch.write(bytes) } catch { throw .attachment(.output(error.description)) }
        }
        return scratch
    }

    /// Streams the encrypted file from the server through the opener into `write`.
    private func fetch(_ attachment: Attachment, options: AttachmentOptions, into write: ([UInt8]) throws(ClientError) -> Void) async throws(ClientError) {
        let server = dependencies.server
        let total = AttachmentFormat.ciphertextSize(plaintextSize: attachment.size)
        var opener: AttachmentOpener
        do { opener = try AttachmentOpener(key: Array(attachment.key), plaintextSize: attachment.size, ciphertextSize: total) } catch {
            throw .attachment(error)
        }
        var hasher = SHA256()
        var offset: Int64 = 0
        // When the connection first failed: all the waiting for it together is bounded by `reconnectWait`.
        var stalledSince: ContinuousClock.Instant?
        var pacer = TransferPacer()
        var length = API.fileChunkSize
        while offset < total {
            let answer: API.DownloadFile.Response
            let pause = pacer.delay(now: .now)
            if pause > .zero { try? await Task.sleep(for: pause) }
            do {
                answer = try await server.call(API.DownloadFile.self, .init(fileID: attachment.fileID, offset: offset, length: Int64(length)))
                pacer.accepted()
            } catch .server(let error) where error.code == .rateLimited {
                // Ask again after the server's retry_after (or a growing pause), at a slower pace.
                guard pacer.refused(error, now: .now) != nil else { throw .attachment(.serverBusy) }
                continue
            } catch .notConnected, .disconnected, .timeout {
                // Resume at our own offset once the connection is back.
                stalledSince = stalledSince ?? .now
                try await server.awaitConnection(until: stalledSince! + options.reconnectWait)
                await options.progress?(TransferProgress(done: offset, total: total, resumedAt: offset))
                continue
            } catch .server(let error) where error.code == .unauthenticated {
                stalledSince = stalledSince ?? .now
                try await server.pauseForLogin(until: stalledSince! + options.reconnectWait)
                continue
            } catch .server(let error) where error.code == .invalidField && length > API.smallFileChunkSize {
                // A server from before the larger chunks: the rest in the chunks it serves.
                length = API.smallFileChunkSize
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
