import Foundation
import GRDB
@testable import ParleyClient
import ParleyImage
import ParleyServer
import Synchronization
import ParleyWire
import Testing

@Suite("Client: files and images in conversations")
struct AttachmentTests {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static func write(_ bytes: [UInt8], _ name: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Files in `directory` other than the expected ones: a failed download must leave nothing behind.
    static func leftovers(in directory: URL, besides expected: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !expected.contains($0) }
    }

    @Test func aFileSentIsDownloadedByThePeerByteForByte() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let original = Self.randomBytes(200_000)   // four 64 KiB chunks, one upload piece
        let source = try Self.write(original, "data.bin", in: harness.root.appendingPathComponent("ann-files"))
        var options = AttachmentOptions()
        options.caption = "the numbers"
        let sent = try #require(try await ann.send(file: source, to: chat.id, options: options).message)
        let attachment = try #require(sent.attachment)
        #expect(attachment.name == "data.bin" && attachment.size == 200_000 && attachment.mimeType == "application/octet-stream")
        #expect(sent.kind == "file" && sent.text == "the numbers" && attachment.thumbnail == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ann.directory.path).allSatisfy { !$0.hasPrefix("upload-") })

        try await eventually("bob has the message") { try bob.history.message(sent.id)?.attachment != nil }
        let received = try #require(try bob.history.message(sent.id))
        #expect(received.attachment == attachment && received.text == "the numbers" && received.kind == "file")
        let downloads = harness.root.appendingPathComponent("bob-files")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let target = downloads.appendingPathComponent("copy.bin")
        try await bob.download(messageID: sent.id, to: target)
        #expect(Array(try Data(contentsOf: target)) == original)
        #expect(try Self.leftovers(in: downloads, besides: ["copy.bin"]).isEmpty)
        // The sender's own history copy carries the key too.
        let mine = downloads.appendingPathComponent("mine.bin")
        try await ann.download(messageID: sent.id, to: mine)
        #expect(Array(try Data(contentsOf: mine)) == original)

        let plain = try #require(try await ann.send("plain", to: chat.id).message)
        await #expect(throws: ClientError.attachment(.noAttachment(messageID: plain.id))) {
            try await ann.download(messageID: plain.id, to: downloads.appendingPathComponent("nothing"))
        }
        #expect(try Self.leftovers(in: downloads, besides: ["copy.bin", "mine.bin"]).isEmpty)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func anImageCarriesADecodableThumbnail() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        var pixels = [UInt8](repeating: 90, count: 800 * 600 * 3)
        for i in 0..<(800 * 600) { pixels[i * 3] = UInt8(i % 800 / 4); pixels[i * 3 + 1] = UInt8(i / 800 * 255 / 600) }
        let jpeg = try ImageCodec.encodeJPEG(try #require(RGBImage(width: 800, height: 600, pixels: pixels)), quality: 85)
        let source = try Self.write(jpeg, "view.photo", in: harness.root.appendingPathComponent("ann-files"))
        let sent = try #require(try await ann.send(file: source, to: chat.id).message)
        #expect(sent.kind == "image")
        try await eventually("bob has the image") { try bob.history.message(sent.id)?.attachment != nil }
        let attachment = try #require(try bob.history.message(sent.id)?.attachment)
        #expect(attachment.mimeType == "image/jpeg" && attachment.isImage)
        #expect(attachment.width == 800 && attachment.height == 600)
        let thumbnail = try ImageCodec.decode(Array(try #require(attachment.thumbnail)))
        #expect(thumbnail.width == 160 && thumbnail.height == 120)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func anOversizeFileIsRefusedBeforeAnyUpload() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann")
        _ = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let source = try Self.write(Self.randomBytes(5000), "big.bin", in: harness.root.appendingPathComponent("files"))
        var options = AttachmentOptions()
        options.maximumSize = 4096
        await #expect(throws: ClientError.attachment(.tooLarge(size: 5000, limit: 4096))) {
            try await ann.send(file: source, to: chat.id, options: options)
        }
        let uploads = try await serverDatabase(harness).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM files") }
        #expect(uploads == 0)
        await #expect(throws: ClientError.self) { try await ann.send(file: harness.root.appendingPathComponent("missing"), to: chat.id) }
        await #expect(throws: ClientError.self) { try await ann.send(file: harness.root, to: chat.id) }
        await ann.disconnect()
        try await harness.stop()
    }

    /// A test about the server's file-size limit, so it lowers that limit (to 1 MiB).
    @Test func aFileOverTheServersLimitIsSaidInWordsWithBothSizes() async throws {
        let harness = try await ClientHarness.start { $0.maximumFileSize = 1 << 20 }
        let ann = try await harness.person("ann")
        _ = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        // Under the client's own cap (60 MiB by default), over the server's once encrypted.
        let source = try Self.write(Self.randomBytes(1_600_000), "big.bin", in: harness.root.appendingPathComponent("files"))
        do {
            _ = try await ann.send(file: source, to: chat.id)
            Issue.record("the server's limit was not met")
        } catch {
            guard case .attachment(.overServerLimit(let size, let limit)) = error else {
                Issue.record("not said as the server's limit: \(error)")
                return
            }
            #expect(limit == 1 << 20 && size > 1_600_000)
            let said = "\(error)"
            #expect(said.contains("the server takes files of at most 1.0 MiB once encrypted, and this one is 1.5 MiB encrypted"), "\(said)")
            #expect(!said.contains("field") && !said.contains("1048576"), "no API words: \(said)")
        }
        await ann.disconnect()
        try await harness.stop()
    }

    @Test func aTamperedChunkOrDigestOnTheServerLeavesNoFile() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let source = try Self.write(Self.randomBytes(100_000), "doc.bin", in: harness.root.appendingPathComponent("ann-files"))
        let first = try #require(try await ann.send(file: source, to: chat.id).message)
        let second = try #require(try await ann.send(file: source, to: chat.id).message)
        try await eventually("bob has both") { try bob.history.message(second.id) != nil }
        let server = try serverDatabase(harness)
        try await server.write { db in
            // A server that flips one byte in the middle of the first file…
            let data = try #require(try Data.fetchOne(db, sql: "SELECT data FROM file_chunks WHERE file_id = ? AND offset = 0",
                                                      arguments: [first.attachment!.fileID]))
            var bytes = Array(data)
            bytes[70_000] ^= 1
            try db.execute(sql: "UPDATE file_chunks SET data = ? WHERE file_id = ? AND offset = 0", arguments: [Data(bytes), first.attachment!.fileID])
            // …and one that swaps the second file's declared digest.
            try db.execute(sql: "UPDATE files SET sha256 = ? WHERE id = ?", arguments: [Data(Self.randomBytes(32)), second.attachment!.fileID])
        }
        let downloads = harness.root.appendingPathComponent("bob-files")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        do {
            try await bob.download(messageID: first.id, to: downloads.appendingPathComponent("first"))
            Issue.record("a tampered chunk was accepted")
        } catch {
            #expect(error == .attachment(.cannotDecrypt) || error == .attachment(.digestMismatch), "\(error)")
        }
        await #expect(throws: ClientError.attachment(.digestMismatch)) {
            try await bob.download(messageID: second.id, to: downloads.appendingPathComponent("second"))
        }
        #expect(try Self.leftovers(in: downloads, besides: []).isEmpty)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func sendingTheSameFileAgainAfterAFailedAttemptResumesWithTheSameKeyAndMessageID() async throws {
        let harness = try await ClientHarness.start()
        let ann = try await harness.person("ann"), bob = try await harness.person("bob")
        let chat = try await ann.startConversation(with: "bob@example.org")
        let original = Self.randomBytes(3 * API.fileChunkSize + 50_000)
        let source = try Self.write(original, "notes.bin", in: harness.root.appendingPathComponent("ann-files"))

        // The first attempt loses its connection for good after two pieces (as when the process is stopped).
        var first = AttachmentOptions()
        first.progress = { report in if report.done == Int64(2 * API.fileChunkSize) { await ann.disconnect() } }
        await #expect(throws: ClientError.notConnected) { try await ann.send(file: source, to: chat.id, options: first) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: ann.directory.path).contains { $0.hasPrefix("upload-") },
                "the encrypted copy is kept for the next attempt")

        try await ann.connect()
        let reports = Shared<[TransferProgress]>([])
        var second = AttachmentOptions()
        second.progress = { report in reports.withLock { $0.append(report) } }
        let sent = try #require(try await ann.send(file: source, to: chat.id, options: second).message)
        let twoPieces = Int64(2 * API.fileChunkSize)
        #expect(reports.withLock { $0.first } == TransferProgress(done: twoPieces, total: reports.withLock { $0.first!.total }, resumedAt: twoPieces))
        #expect(try FileManager.default.contentsOfDirectory(atPath: ann.directory.path).allSatisfy { !$0.hasPrefix("upload-") })
        let uploads = try await serverDatabase(harness).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM files") }
        #expect(uploads == 1, "the second attempt continued the first upload")

        try await eventually("bob has it") { try bob.history.message(sent.id) != nil }
        let target = harness.root.appendingPathComponent("bob-notes.bin")
        try await bob.download(messageID: sent.id, to: target)
        #expect(Array(try Data(contentsOf: target)) == original)
        for client in [ann, bob] { await client.disconnect() }
        try await harness.stop()
    }

    @Test func anUploadInterruptedByAServerRestartResumesAtTheServersOffset() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-resume-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = Shared<EmbeddedServer?>(try await EmbeddedServer.start(dataDirectory: root.appendingPathComponent("server")))
        let port = server.withLock { $0!.port }
        func person(_ name: String) async throws -> ParleyClient {
            let client = try ParleyClient.create(
                home: root.appendingPathComponent(name), email: "\(name)@example.org", displayName: name,
                server: ServerAddress(host: "127.0.0.1", port: port), pin: nil, reconnectPolicy: ReconnectPolicy(initial: 0.1, maximum: 0.5))
            try await client.registration.register(password: "password of \(name)", envelopeIterations: 210_000)
            try await client.registration.confirm(code: try #require(server.withLock { $0!.latestCode(for: "\(name)@example.org") }))
            try await client.connect()
            return client
        }
        let ann = try await person("ann"), bob = try await person("bob")
        // What ann's connection did, for the failure message if the resume does not happen.
        let connectionLog = Shared<[String]>([])
        let watcher = Task {
            for await event in ann.events() {
                if case .connection(let status) = event { connectionLog.withLock { $0.append("\(status)") } }
                if case .signedOut = event { connectionLog.withLock { $0.append("signed out") } }
            }
        }
        defer { watcher.cancel() }
        let chat = try await ann.startConversation(with: "bob@example.org")
        let size = 4 * API.fileChunkSize + 50_000
        let original = Self.randomBytes(size)
        let source = try Self.write(original, "big.bin", in: root.appendingPathComponent("files"))

        let reports = Shared<[TransferProgress]>([])
        let stopped = Shared<Bool>(false)
        var options = AttachmentOptions()
        options.reconnectWait = .seconds(180)  // the whole suite on two cores can make a reconnect slow
        options.progress = { report in
            reports.withLock { $0.append(report) }
            // After the third chunk the server goes away; it comes back shortly on the same port and data.
            guard report.resumedAt == nil, report.done == Int64(3 * API.fileChunkSize) else { return }
            let old = server.withLock { server in defer { server = nil }; return server }
            try? await old?.stop()
            stopped.withLock { $0 = true }
        }
        // The restart runs as a child task of the test, not from inside the client's progress callback.
        let restarter = Task {
            // Only once the old server has fully stopped (its listener closed) can a new one bind the port.
            while !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(300))
            do {
                let restarted = try await EmbeddedServer.restart(dataDirectory: root.appendingPathComponent("server"), port: port)
                server.withLock { $0 = restarted }
                connectionLog.withLock { $0.append("(server restarted)") }
            } catch {
                connectionLog.withLock { $0.append("(\(error))") }
                throw error
            }
        }
        let outcome: SendOutcome
        do {
            outcome = try await ann.send(file: source, to: chat.id, options: options)
            try await restarter.value
        } catch {
            Issue.record("the upload did not resume: \(error); ann's connection: \(connectionLog.withLock { $0 })")
            throw error
        }
        let sent = try #require(outcome.message)
        let resumed = reports.withLock { $0.compactMap(\.resumedAt) }
        #expect(resumed == [Int64(3 * API.fileChunkSize)], "resumed at \(resumed)")
        // Nothing was sent twice: after the resume the offsets continue from the server's.
        let offsets = reports.withLock { $0.map(\.done) }
        #expect(offsets == offsets.sorted() && offsets.last == AttachmentFormat.ciphertextSize(plaintextSize: Int64(size)))

        try await eventually("bob has it", seconds: 60) { try bob.history.message(sent.id) != nil }
        let target = root.appendingPathComponent("bob-copy.bin")
        try await bob.download(messageID: sent.id, to: target)
        #expect(Array(try Data(contentsOf: target)) == original)
        for client in [ann, bob] { await client.disconnect() }
        try await (server.withLock { $0 })?.stop()
    }
}

/// A value shared with escaping closures (a `Mutex` itself cannot be captured by them).
private final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

/// A second connection to the running server's SQLite file, to play a server that alters what it stores.
func serverDatabase(_ harness: ClientHarness) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    return try DatabaseQueue(path: harness.server.databasePath, configuration: configuration)
}
