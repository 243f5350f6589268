import Foundation
@testable import ParleyClient
import ParleyClientFormats
import ParleyCrypto
import ParleyTestSupport
import ParleyVault
import ParleyWire
import Testing

/// Files as components: the uploader and the downloader on a scripted server, without the client actor — resuming,
/// and a server that drops, lies or flips bits.
@Suite("File transfer components")
struct FileTransferTests {
    let account: ScratchAccount
    var scratch: TemporaryDirectory { account.scratch }
    var database: ClientDatabase { account.database }
    let server = ScriptedFileServer()
    let context: AccountContext
    let plaintext: [UInt8]
    let file: URL

    init() throws {
        account = try ScratchAccount("transfer")
        context = account.context(server: server)
        // Three and a bit upload pieces, so resuming mid-way is possible.
        plaintext = SystemRandomSource().bytes(3 * API.fileChunkSize + 1234)
        file = account.url.appendingPathComponent("report.bin")
        try Data(plaintext).write(to: file)
    }

    func upload(via dependencies: some FileUploader.Dependencies) async throws(ClientError) -> MessageContent {
        try await FileUploader(dependencies: dependencies).upload(file, size: Int64(plaintext.count), to: 1, options: AttachmentOptions())
    }

    func downloaded(_ attachment: ClientAttachment, name: String = "out.bin") async throws(ClientError) -> URL {
        let target = scratch.url.appendingPathComponent(name)
        try await FileDownloader(dependencies: context).download(attachment, to: target, options: AttachmentOptions())
        return target
    }

    @Test("a file goes up in pieces and comes back byte for byte; no encrypted copy or record is left")
    func roundTrip() async throws {
        let content = try await upload(via: context)
        let attachment = try #require(content.file)
        #expect(content.type == "file" && attachment.size == Int64(plaintext.count) && attachment.name == "report.bin")
        #expect(server.state.withLock { $0.calls.filter { $0 == "upload_file" }.count } == 4)
        // What the server holds is ciphertext, never the plaintext.
        let stored = try #require(server.state.withLock { $0.files[attachment.fileID]?.bytes })
        #expect(stored.count > plaintext.count && !stored.starts(with: plaintext.prefix(64)))
        let back = try await downloaded(attachment)
        #expect(try Data(contentsOf: back) == Data(plaintext))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix("upload-") }.isEmpty)
        #expect(try database.read { try $0.all(PendingUpload.namespace) }.isEmpty)
    }

    @Test("a server from before the larger chunks gets the small ones, up and down, also when it appears mid-upload")
    func aServerOfSmallChunksGetsSmallChunks() async throws {
        server.state.withLock { $0.smallChunksOnly = true }
        let content = try await upload(via: context)
        let attachment = try #require(content.file)
        #expect(server.state.withLock { $0.largestPiece } == API.smallFileChunkSize, "upload_start's chunk_size is followed")
        #expect(try Data(contentsOf: try await downloaded(attachment)) == Data(plaintext), "the download falls back and completes")
        #expect(server.state.withLock { $0.largestLength } == API.fileChunkSize, "it asked for the large chunk first")

        // A resumed upload asks no upload_start: a refused large piece is sent again small.
        let other = ScriptedFileServer()
        other.state.withLock {
            $0.dropAt = Int64(API.fileChunkSize)
            $0.smallChunksAfterDrop = true
        }
        let resumed = try await FileUploader(dependencies: account.context(server: other))
            .upload(file, size: Int64(plaintext.count), to: 1, options: AttachmentOptions())
        let resumedID = try #require(resumed.file).fileID
        let stored = try #require(other.state.withLock { $0.files[resumedID]?.bytes })
        #expect(stored.count == Int(AttachmentFormat.ciphertextSize(plaintextSize: Int64(plaintext.count))))
    }

    @Test("a connection lost mid-upload resumes at the server's offset, with the same key")
    func resumesAtTheServersOffset() async throws {
        server.state.withLock { $0.dropAt = Int64(API.fileChunkSize * 2) }
        let content = try await upload(via: context)
        let calls = server.state.withLock { $0.calls }
        #expect(calls.filter { $0 == "upload_start" }.count == 1, "resumed, not started again: \(calls)")
        #expect(calls.contains("upload_status"))
        let back = try await downloaded(try #require(content.file))
        #expect(try Data(contentsOf: back) == Data(plaintext))
    }

    @Test("without a server the upload fails 'not connected' and keeps its encrypted copy; the next attempt reuses it")
    func aFailedAttemptIsResumedLater() async throws {
        let offline = AccountContext(database: database, directory: scratch.url)   // a link to no client
        await #expect(throws: ClientError.notConnected) { try await upload(via: offline) }
        let pending = try #require(try PendingUploads(dependencies: context).load(
            PendingUpload.recordKey(file: file, size: Int64(plaintext.count), conversationID: 1)))
        let content = try await upload(via: context)
        #expect(content.id == pending.id && content.file?.key == pending.key, "the same message id and key")
    }

    @Test("a bit flipped by the server, a lying size, digest or offset: refused, and no file is left behind")
    func hostileDownloads() async throws {
        let attachment = try #require(try await upload(via: context).file)
        let cases: [(String, @Sendable (inout API.DownloadFile.Response) -> Void, ClientError)] = [
            ("flip", { if $0.offset == 0 { $0.chunk[100] ^= 1 } }, .attachment(.cannotDecrypt)),
            ("flip-last", { if $0.offset + Int64($0.chunk.count) == $0.size { $0.chunk[$0.chunk.count - 1] ^= 1 } }, .attachment(.digestMismatch)),
            ("size", { $0.size -= 1 }, .attachment(.malformed("the server holds a file of another size"))),
            ("digest", { $0.sha256[0] ^= 1 }, .attachment(.digestMismatch)),
            ("offset", { $0.offset += 1 }, .badResponse("download_file answered another offset")),
            ("empty", { $0.chunk = [] }, .attachment(.malformed("the server sent a chunk of the wrong size"))),
        ]
        for (name, tamper, expected) in cases {
            server.state.withLock { $0.tamper = tamper }
            await #expect(throws: expected, "\(name)") { _ = try await downloaded(attachment, name: name) }
            let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains(name) }
            #expect(left.isEmpty, "\(name) left \(left)")
        }
    }

    @Test("an upload the server acknowledges wrongly, or forgets after a reconnect, fails after a bounded number of pieces")
    func lyingUploadAcknowledgementsEndTheUpload() async throws {
        let total = Int64(3 * API.fileChunkSize + 1234)
        let lies: [(String, @Sendable (ScriptedFileServer) -> Void)] = [
            ("no progress", { $0.state.withLock { $0.tamperUpload = { $0.received = 0 } } }),
            ("one byte at a time", { $0.state.withLock { $0.tamperUpload = { $0.received = min($0.received, 1) } } }),
            ("past the end", { $0.state.withLock { $0.tamperUpload = { $0.received = total * 2 } } }),
            ("a conflict that holds nothing more", { $0.state.withLock { $0.conflictClaim = 0 } }),
            ("forgotten after a reconnect", { $0.state.withLock { $0.dropAt = Int64(API.fileChunkSize * 2); $0.statusLie = 0 } }),
        ]
        for (name, lie) in lies {
            let server = ScriptedFileServer()
            lie(server)
            let outcome: Result<MessageContent, ClientError> = await {
                do throws(ClientError) { return .success(try await upload(via: account.context(server: server))) } catch { return .failure(error) }
            }()
            guard case .failure(.badResponse(let why)) = outcome else { Issue.record("\(name): \(outcome)"); continue }
            #expect(!why.isEmpty)
            #expect(server.state.withLock { $0.calls.filter { $0 == "upload_file" }.count } <= 4, "\(name)")
        }
    }

    @Test("a download into a named pipe writes into it and leaves it a pipe")
    func downloadIntoAPipe() async throws {
        let attachment = try #require(try await upload(via: context).file)
        let pipe = scratch.url.appendingPathComponent("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        // The reader blocks (opening a pipe waits for its writer): on a thread of its own, not the cooperative pool.
        let reader = Task { try await Blocking.run { FileHandle(forReadingAtPath: pipe.path)?.readDataToEndOfFile() } }
        // Whatever happens, the reader is let go (a writer that opens and closes gives it an end of file), so a
        // failure fails the test instead of hanging it.
        defer { let fd = open(pipe.path, O_WRONLY | O_NONBLOCK); if fd >= 0 { close(fd) } }
        try await FileDownloader(dependencies: context).download(attachment, to: pipe, options: AttachmentOptions())
        let received = try await reader.value
        #expect(received == Data(plaintext))
        #expect(LocalFile.isDeviceOrPipe(pipe))
    }

    @Test("into standard output or a pipe: nothing goes out before every check, and nothing is put in the account's directory")
    func downloadIntoAHandle() async throws {
        let attachment = try #require(try await upload(via: context).file)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path))
        for tamper in [nil, { (answer: inout API.DownloadFile.Response) in
            if answer.offset + Int64(answer.chunk.count) == answer.size { answer.chunk[answer.chunk.count - 1] ^= 1 }
        }] as [(@Sendable (inout API.DownloadFile.Response) -> Void)?] {
            server.state.withLock { $0.tamper = tamper }
            let pipe = Pipe()
            let reader = Task { try await Blocking.run { pipe.fileHandleForReading.readDataToEndOfFile() } }
            let outcome: Result<Void, ClientError> = await {
                do throws(ClientError) {
                    try await FileDownloader(dependencies: context).download(attachment, into: pipe.fileHandleForWriting, options: AttachmentOptions())
                    return .success(())
                } catch { return .failure(error) }
            }()
            try pipe.fileHandleForWriting.close()
            let received = try await reader.value
            if tamper == nil {
                #expect((try? outcome.get()) != nil, "\(outcome)")
                #expect(received == Data(plaintext))
            } else {
                #expect(throws: ClientError.attachment(.digestMismatch)) { try outcome.get() }
                #expect(received.isEmpty, "the last chunk was changed: not one byte of the file may go out")
            }
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) == before)
    }

    @Test("a file over the limit is refused before anything is encrypted")
    func oversizeRefusedFirst() throws {
        var options = AttachmentOptions()
        options.maximumSize = 1000
        #expect(throws: ClientError.attachment(.tooLarge(size: Int64(plaintext.count), limit: 1000))) {
            try FileUploader.checkedSize(of: file, options: options)
        }
        #expect(throws: ClientError.self) { try FileUploader.checkedSize(of: scratch.url, options: AttachmentOptions()) }
    }
}
