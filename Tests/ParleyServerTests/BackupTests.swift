import Foundation
import GRDB
@testable import ParleyServer
import ParleyTestSupport
import Synchronization
import Testing

/// `SQLiteBackup` (docs/OPERATIONS.md §10): an online backup holds everything acknowledged before it began,
/// and a restore refuses what it must.
@Suite("Backups of the SQLite database", .serialized)
struct BackupTests {
    @Test("a backup taken during a stream of sends restores every message acknowledged before it began")
    func backupUnderLoad() async throws {
        let people = try await TwoPeople.start()
        let conversation = try await people.directConversation()
        let acknowledged = Mutex<[Int]>([])
        let stop = Atomic<Bool>(false)
        let socket = people.annSocket
        let envelopes = people.envelopesFromAnn("x")
        let clock = people.server.clock
        let sender = Task {
            var n = 0
            while !stop.load(ordering: .relaxed) {
                n += 1
                var sent = try await socket.call("send_message", ["conversation_id": conversation, "client_message_id": "m-\(n)", "envelopes": envelopes])
                while sent.errorCode == "rate_limited" {
                    // The default 50 requests a second, on the test server's hand-wound clock: time passes.
                    clock.advance(milliseconds: 1_000)
                    sent = try await socket.call("send_message", ["conversation_id": conversation, "client_message_id": "m-\(n)", "envelopes": envelopes])
                }
                guard let id = sent["message_id"] as? Int else { throw LineSocket.Failure(description: "\(sent)") }
                acknowledged.withLock { $0.append(id) }
            }
            return n
        }
        let deadline = ContinuousClock.now + .seconds(60)
        while acknowledged.withLock({ $0.count }) < 150 {
            guard ContinuousClock.now < deadline else {
                stop.store(true, ordering: .relaxed)
                Issue.record("sends stalled after \(acknowledged.withLock { $0.count }): \(String(describing: await sender.result))")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // A backup of a small database takes milliseconds, so one may begin and end between two sends: back up
        // until one ran while a send was acknowledged (the server's writes go on during a backup).
        var before: [Int] = []
        var backup = ""
        var during = 0
        let trying = ContinuousClock.now + .seconds(30)
        while during == 0, ContinuousClock.now < trying {
            if !backup.isEmpty { try FileManager.default.removeItem(atPath: backup) }
            before = acknowledged.withLock { $0 }
            backup = people.server.directory.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path
            try await Blocking.run { [backup] in
                try SQLiteBackup.backup(databaseAt: people.server.directory.appendingPathComponent("parley.sqlite").path, to: backup)
            }
            during = acknowledged.withLock { $0.count } - before.count
        }
        try await Task.sleep(for: .milliseconds(200))
        stop.store(true, ordering: .relaxed)
        let total = try await sender.value
        try await people.server.stop(keepingFiles: true)
        #expect(during > 0, "sends went on while a backup ran")

        // Restored elsewhere, a store opened on it holds every message acknowledged before the backup began.
        let restored = FileManager.default.temporaryDirectory.appendingPathComponent("parley-restored-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: restored, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: restored) }
        #expect(try SQLiteBackup.restore(from: backup, into: restored) == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: backup)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let store = try SQLiteStore(path: restored.appendingPathComponent("parley.sqlite").path)
        var missing: [Int] = []
        for id in before where try await store.conversationID(ofMessage: Int64(id)) == nil { missing.append(id) }
        #expect(missing.isEmpty, "\(missing.count) of \(before.count) acknowledged messages are missing")
        let count = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages") ?? 0 }
        #expect(count >= before.count && count <= total)
        try? FileManager.default.removeItem(at: people.server.directory)
    }

    @Test("restore refuses a running server, garbage, a damaged or newer database, and changes nothing")
    func refusals() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("parley-backup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let server = try await EmbeddedServer.start(dataDirectory: data)
        let good = root.appendingPathComponent("good.sqlite").path
        try SQLiteBackup.backup(databaseAt: server.databasePath, to: good)
        // A second backup never overwrites.
        #expect(throws: BackupError.self) { try SQLiteBackup.backup(databaseAt: server.databasePath, to: good) }

        #expect((try? SQLiteBackup.restore(from: good, into: data)) == nil, "refused while the server runs")
        #expect(throws: StoreError.self) { try DataDirectoryLock(data) }
        try await server.stop()
        let original = try Data(contentsOf: URL(fileURLWithPath: server.databasePath))

        let garbage = root.appendingPathComponent("garbage.sqlite")
        try Data("not a database at all, just some words".utf8).write(to: garbage)
        let halved = root.appendingPathComponent("halved.sqlite")
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try goodBytes.prefix(goodBytes.count / 2).write(to: halved)
        let newer = root.appendingPathComponent("newer.sqlite")
        try goodBytes.write(to: newer)
        try await DatabaseQueue(path: newer.path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        let foreign = root.appendingPathComponent("foreign.sqlite")
        try await DatabaseQueue(path: foreign.path).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        for (file, words) in [(garbage, "not a Parley database"), (halved, "database"), (newer, "newer Parley"), (foreign, "not a Parley database")] {
            #expect {
                try SQLiteBackup.restore(from: file.path, into: data)
            } throws: { error in
                (error as? BackupError)?.description.contains(words) == true
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: server.databasePath)) == original, "nothing changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.contains("replaced") }.isEmpty)

        // The good one goes in; the one it replaced is kept.
        let kept = try #require(try SQLiteBackup.restore(from: good, into: data))
        #expect(FileManager.default.fileExists(atPath: kept))
        let again = try await EmbeddedServer.start(dataDirectory: data)
        try await again.stop()
    }

    @Test("PostgreSQL: the documented pg_dump and pg_restore give a server that has every message and account")
    func postgresDumpAndRestore() async throws {
        let people = try await TwoPeople.start(backend: .postgres)
        let conversation = try await people.directConversation()
        var ids: [Int] = []
        for n in 1...20 {
            let sent = try await people.annSocket.call("send_message", [
                "conversation_id": conversation, "client_message_id": "pg-\(n)", "envelopes": people.envelopesFromAnn("m\(n)"),
            ])
            ids.append(try #require(sent["message_id"] as? Int))
        }
        let source = try #require(people.server.databaseURL)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-pg-\(UUID().uuidString).dump").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try await PostgresCluster.dump(source, to: file)   // while the server runs
        try await people.server.stop()

        let target = try await PostgresCluster.newDatabase()
        try await PostgresCluster.restore(file, into: target)
        let restored = try await TestServer.start(joining: target)
        let bob = try restored.connect()
        _ = try await restored.login(people.bob, on: bob)
        let messages = try #require(try await bob.call("get_messages", ["after_ts": 0, "limit": 100])["messages"] as? [[String: Any]])
        #expect(messages.compactMap { $0["message_id"] as? Int } == ids)
        try await restored.stop()
        await PostgresCluster.dropDatabase(target)
    }
}
