import Foundation
@testable import ParleyServer
import Testing

/// `RetentionStore` and delivery-time deletion, identical on every backend.
@Suite("Store conformance: retention")
struct RetentionConformanceTests {
    static let day = RetentionPolicy.day
    /// When the samples start: late enough that nothing else in the database is younger.
    static let start: Int64 = 100 * day

    @Test("a sweep deletes exactly what is past the TTL, and a second sweep finds nothing", arguments: StoreBackend.allCases)
    func sweepsExactly(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let t0 = Self.start
            func send(_ id: String, at now: Int64) async throws -> Int64 {
                try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: id), now: now).id
            }
            let old = try await send("old", at: t0)  // delivered below: no envelope is left
            let undelivered = try await send("undelivered", at: t0 + 1)  // never confirmed: its envelope stays
            let deletedLongAgo = try await send("deleted-long-ago", at: t0 + 2)
            let deletedRecently = try await send("deleted-recently", at: t0 + 3)
            let young = try await send("young", at: t0 + 20 * Self.day)
            #expect(try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [old], now: t0 + 5).count == 1)
            #expect(try await store.toggleReaction(messageID: old, accountID: p.bob, emoji: "👍", now: t0 + 6))
            #expect(try await store.toggleReaction(messageID: young, accountID: p.bob, emoji: "👍", now: t0 + 20 * Self.day))
            try await store.softDelete(messageID: deletedLongAgo, now: t0 + 7)
            try await store.softDelete(messageID: deletedRecently, now: t0 + 25 * Self.day)

            // Uploads: finished long ago, finished recently, abandoned (2 days incomplete), still uploading (1 hour).
            let now = t0 + 30 * Self.day + 100
            func upload(at created: Int64, chunks: Int, complete: Bool) async throws -> Int64 {
                let file = try await store.createFile(
                    ownerID: p.ann, conversationID: p.conversation, size: Int64(chunks * 4 + (complete ? 0 : 4)),
                    sha256: Sample.bytes(32), quota: 1 << 30, now: created)
                for index in 0..<chunks { _ = try await store.appendChunk(fileID: file.id, offset: Int64(index * 4), data: [1, 2, 3, 4]) }
                if complete { try await store.completeFile(fileID: file.id) }
                return file.id
            }
            let oldFile = try await upload(at: t0, chunks: 3, complete: true)
            let youngFile = try await upload(at: t0 + 20 * Self.day, chunks: 2, complete: true)
            let abandoned = try await upload(at: now - 2 * Self.day, chunks: 2, complete: false)
            let uploading = try await upload(at: now - 3_600_000, chunks: 1, complete: false)

            // Location: an ended route with only old waypoints goes whole; a live one keeps its recent waypoint.
            let ended = try await store.startRoute(ownerID: p.bob, now: t0)
            _ = try await store.appendWaypoints(routeID: ended.id, [NewWaypoint(timestamp: 1, data: "a"), NewWaypoint(timestamp: 2, data: "b")], limit: 100, now: t0)
            let live = try await store.startRoute(ownerID: p.bob, now: t0 + 8)  // ends the first one at t0 + 8
            _ = try await store.appendWaypoints(routeID: live.id, [NewWaypoint(timestamp: 3, data: "c")], limit: 100, now: t0 + 9)
            _ = try await store.appendWaypoints(routeID: live.id, [NewWaypoint(timestamp: 4, data: "d")], limit: 100, now: now - Self.day)

            // (Saving a nonce drops those that expired well before it, so the expired one is saved last.)
            try await store.saveLoginNonce(Sample.bytes(32, 41), accountID: p.ann, deviceID: 1, expiresAt: now + 60_000)
            try await store.saveLoginNonce(Sample.bytes(32, 40), accountID: p.ann, deviceID: 1, expiresAt: now - 2 * 3_600_000)

            let report = try await store.sweepExpired(now: now, policy: RetentionPolicy(days: 30, batchSize: 2))
            var expected = SweepReport()
            expected.envelopes = 1  // undelivered's (old's was confirmed, deleted messages had theirs dropped)
            expected.reactions = 1
            expected.messages = 3  // old, undelivered, deleted-long-ago
            expected.fileChunks = 5
            expected.files = 2
            expected.waypoints = 3
            expected.routes = 1
            expected.loginNonces = 1
            expected.registrations = 2  // ann's and bob's, at 1,000 ms
            #expect(report == expected)

            for id in [old, undelivered, deletedLongAgo] { #expect(try await store.messageMetadata(id: id) == nil) }
            #expect(try await store.messageMetadata(id: deletedRecently)?.deletedAt == t0 + 25 * Self.day, "a recent deletion stays visible")
            #expect(try await store.messageMetadata(id: young) != nil)
            #expect(try await store.reactions(messageID: young).count == 1)
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id) == [young])
            #expect(try await store.file(id: oldFile) == nil)
            #expect(try await store.file(id: abandoned) == nil)
            #expect(try await store.readFile(fileID: youngFile, offset: 0, length: 100) == [1, 2, 3, 4, 1, 2, 3, 4])
            #expect(try await store.file(id: uploading)?.received == 4)
            #expect(try await store.route(id: ended.id) == nil)
            #expect(try await store.waypoints(routeID: live.id, afterID: 0, limit: 10).map(\.data) == ["d"])
            #expect(try await store.consumeLoginNonce(Sample.bytes(32, 41), accountID: p.ann, deviceID: 1, now: now))

            #expect(try await store.sweepExpired(now: now, policy: RetentionPolicy(days: 30)) == SweepReport())
            // The timestamps keep increasing after the newest messages were swept too.
            let later = try await store.insertMessage(Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "later"), now: now)
            #expect(later.timestamp > t0 + 20 * Self.day)
        }
    }

    @Test("a confirmed ciphertext row is deleted, the sender's other device's too", arguments: StoreBackend.allCases)
    func deliveryDeletes(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let message = try await store.insertMessage(
                Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.ann, 2)], clientID: "d1"), now: 10)
            #expect(try await store.retainedRowCounts()["envelopes"] == 2)
            #expect(try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [message.id], now: 20).map(\.messageID) == [message.id])
            #expect(try await store.retainedRowCounts()["envelopes"] == 1, "bob's row is gone")
            #expect(try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [message.id], now: 21).isEmpty, "confirmed once")
            #expect(try await store.confirmDelivery(accountID: p.ann, deviceID: 2, messageIDs: [message.id], now: 22).map(\.senderID) == [p.ann])
            #expect(try await store.retainedRowCounts()["envelopes"] == 0, "ann's second device's row is gone too")
            #expect(try await store.messages(accountID: p.ann, deviceID: 2, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.messages(accountID: p.ann, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
            #expect(try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).isEmpty)
            // The message itself stays for replies, reactions and pins until the TTL.
            #expect(try await store.messageMetadata(id: message.id) != nil)
        }
    }

    @Test("login-failure records an hour past their lockout are swept; the ones that still count stay", arguments: StoreBackend.allCases)
    func lockoutsAreSwept(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let now = Self.start
            // A stranger who tried 300 addresses an hour and more ago, and one lockout that still runs.
            for index in 0..<300 {
                try await store.saveLockout(subject: "confirm:nobody\(index)@example.org",
                                            LockoutRecord(failures: 1, lockedUntil: now - LockoutPolicy.forgetting - 1 - Int64(index)))
            }
            try await store.saveLockout(subject: "login:victim@example.org|127.0.0.2", LockoutRecord(failures: 3, lockedUntil: now + 8_000))
            try await store.saveLockout(subject: "address:127.0.0.2", LockoutRecord(failures: 5, lockedUntil: now - 60_000))
            let report = try await store.sweepExpired(now: now, policy: RetentionPolicy(days: 30, batchSize: 64))
            #expect(report.lockouts == 300)
            #expect(try await store.retainedRowCounts()["lockouts"] == 2)
            #expect(try await store.lockout(subject: "login:victim@example.org|127.0.0.2")?.failures == 3)
            #expect(try await store.lockout(subject: "address:127.0.0.2")?.failures == 5, "within the hour: still counted")
        }
    }

    @Test("sweeps running at once delete every expired row exactly once, without errors", arguments: StoreBackend.allCases)
    func concurrentSweeps(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            for index in 0..<30 {
                _ = try await store.insertMessage(
                    Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1)], clientID: "c\(index)"), now: Self.start + Int64(index))
            }
            let policy = RetentionPolicy(days: 30, batchSize: 4)
            let now = Self.start + 31 * Self.day
            let reports = try await withThrowingTaskGroup(of: SweepReport.self) { group in
                for _ in 0..<3 { group.addTask { try await store.sweepExpired(now: now, policy: policy) } }
                return try await group.reduce(into: [SweepReport]()) { $0.append($1) }
            }
            #expect(reports.map(\.messages).reduce(0, +) == 30)
            #expect(reports.map(\.envelopes).reduce(0, +) == 30)
            let counts = try await store.retainedRowCounts()
            #expect(counts["messages"] == 0 && counts["envelopes"] == 0)
        }
    }
}
