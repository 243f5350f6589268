import Foundation
import GRDB
@testable import ParleyServer
import Testing

/// The write-ahead log is checkpointed beside the writer, stays bounded, and loses nothing.
@Suite("SQLite write-ahead log checkpoints")
struct WALCheckpointerTests {
    /// Bytes one frame of the log takes: a 24-byte header and a 4 KiB page.
    static let frameBytes = 24 + 4_096

    @Test("130 MB of messages: background rounds and short tails keep the log bounded, and every message is there after reopening")
    func boundedAndComplete() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("parley.sqlite").path

        var store: SQLiteStore? = try SQLiteStore(path: path)
        let p = try await MessageConformanceTests.pair(try #require(store))
        let ciphertext = Array(repeating: UInt8(0xA5), count: 8_192)
        // More than twice what the log may hold at its bound (10,000 frames, about 41 MB), so that "far less than all
        // that was written" holds even when a loaded machine lets the background rounds fall behind until the bound.
        let batches = 80, perBatch = 100
        var largestLog = 0
        for batch in 0..<batches {
            // A batch in flight at once, so the group commit carries many messages per commit, as under load.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<perBatch {
                    let writer = try #require(store)
                    group.addTask {
                        let message = NewMessage(
                            conversationID: p.conversation, senderID: p.ann, senderDevice: 1, clientMessageID: "b\(batch)-\(index)",
                            kind: "text", replyTo: nil,
                            envelopes: [Envelope(accountID: p.bob, deviceID: 1, ciphertext: ciphertext),
                                        Envelope(accountID: p.bob, deviceID: 2, ciphertext: ciphertext)])
                        _ = try await writer.insertMessage(message, now: 1_000)
                    }
                }
                try await group.waitForAll()
            }
            largestLog = max(largestLog, Self.fileSize(path + "-wal"))
        }
        let written = batches * perBatch * 2 * ciphertext.count
        let done = try #require(store).checkpointer.done
        #expect(done.rounds >= 1, "background rounds copied the log: \(done)")
        #expect(done.tails >= 1, "the writer copied short tails so the log could start over: \(done)")
        // The log file keeps its largest size; with every frame kept it would be larger than all that was written.
        #expect(largestLog <= (CheckpointSchedule.limitFrames + 2_000) * Self.frameBytes, "log \(largestLog) bytes, \(done)")
        #expect(largestLog < written / 2, "log \(largestLog) bytes for \(written) bytes of ciphertext")

        store = nil
        let reopened = try SQLiteStore(path: path)
        var count = 0, after: Int64 = 0
        while true {
            let page = try await reopened.messages(accountID: p.bob, deviceID: 1, afterTimestamp: after, limit: 500)
            guard let last = page.last else { break }
            #expect(page.allSatisfy { $0.ciphertext == ciphertext })
            count += page.count
            after = last.timestamp
        }
        #expect(count == batches * perBatch)
        let check = try await reopened.pool.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") }
        #expect(check == "ok")
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
