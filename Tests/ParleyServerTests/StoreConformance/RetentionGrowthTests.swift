import Foundation
import GRDB
@testable import ParleyServer
import Testing

/// Under steady traffic the database stops growing once the oldest traffic is past the TTL.
@Suite("Store conformance: bounded growth under retention")
struct RetentionGrowthTests {
    static let day = RetentionPolicy.day

    @Test("20 rounds of send, react, confirm, upload, post and a group deleted, 4 days apart, TTL 10 days: every table stays the same size",
          arguments: StoreBackend.allCases)
    func boundedGrowth(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let clock = ManualServerClock(start: 100 * Self.day)
            let policy = RetentionPolicy(days: 10, batchSize: 7)
            let perRound = 12
            var history: [[String: Int]] = []
            var pages: [Int] = []
            for round in 0..<20 {
                let route = try await store.startRoute(ownerID: p.bob, now: clock.now())
                for index in 0..<perRound {
                    // Bob's laptop confirms everything; his phone (device 2) never comes online, so its
                    // envelopes wait until the TTL.
                    let stored = try await store.insertMessage(
                        Sample.message(p.conversation, from: p.ann, to: [(p.bob, 1), (p.bob, 2)], clientID: "r\(round)-\(index)"),
                        now: clock.now())
                    _ = try await store.confirmDelivery(accountID: p.bob, deviceID: 1, messageIDs: [stored.id], now: clock.now())
                    if index % 3 == 0 { _ = try await store.toggleReaction(messageID: stored.id, accountID: p.bob, emoji: "👍", now: clock.now()) }
                    _ = try await store.appendWaypoints(
                        routeID: route.id, [NewWaypoint(timestamp: Int64(index), data: String(repeating: "w", count: 200))], limit: 1_000,
                        now: clock.now())
                }
                let file = try await store.createFile(
                    ownerID: p.ann, conversationID: p.conversation, size: 8_192, sha256: Sample.bytes(32), quota: 1 << 30, now: clock.now())
                _ = try await store.appendChunk(fileID: file.id, offset: 0, data: Array(repeating: 7, count: 4_096))
                if round % 2 == 0 {
                    _ = try await store.appendChunk(fileID: file.id, offset: 4_096, data: Array(repeating: 7, count: 4_096))
                    try await store.completeFile(fileID: file.id)
                }  // odd rounds leave an abandoned upload
                try await store.saveLoginNonce(Sample.bytes(32, UInt8(round)), accountID: p.ann, deviceID: 1, expiresAt: clock.now() + 60_000)
                // A group made, decorated, written to and deleted again: gone once its deletion is past the TTL.
                let group = try await store.createConversation(kind: .group, creatorID: p.ann, memberIDs: [p.bob], now: clock.now()).conversation.id
                try await store.setAvatar(.group(group), blob: Sample.bytes(1_000), now: clock.now())
                _ = try await store.insertMessage(Sample.message(group, from: p.ann, to: [(p.bob, 1)], clientID: "g\(round)"), now: clock.now() + 1)
                try await store.deleteConversation(conversationID: group, now: clock.now() + 2)

                clock.advance(milliseconds: 4 * Self.day)
                _ = try await store.sweepExpired(now: clock.now(), policy: policy)
                history.append(try await store.retainedRowCounts())
                if let sqlite = store as? SQLiteStore { pages.append(try await Self.usedPages(sqlite)) }
            }
            // Kept: the rounds of the last 10 days, that is 2 (the sweep runs 4 days after each round).
            let settled = history[5]
            #expect(settled["messages"] == 2 * (perRound + 1), "each round's and its deleted group's")
            #expect(settled["conversations"] == 1 + 2 && settled["members"] == 2 + 2 * 2, "the pair's and the groups deleted in the last 10 days")
            #expect(settled["envelopes"] == 2 * perRound, "bob's phone's row per message; bob's laptop rows are gone")
            #expect(settled["reactions"] == 2 * perRound / 3)
            #expect(settled["location_waypoints"] == 2 * perRound)
            #expect(settled["files"] == 1 && settled["file_chunks"] == 2, "the complete upload of the last 10 days; abandoned ones go after a day")
            #expect(settled["login_nonces"] == 0 && settled["registrations"] == 0)
            for (round, counts) in history.enumerated().dropFirst(5) {
                #expect(counts == settled, "round \(round)")
            }
            if !pages.isEmpty {
                // Freed pages are reused: the pages in use settle too (a little slack for b-tree rebalancing).
                #expect(pages[19] <= pages[5] + 4, "\(pages)")
            }
        }
    }

    /// Pages of the SQLite file holding data: the page count less the free list.
    static func usedPages(_ store: SQLiteStore) async throws -> Int {
        try await store.pool.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0) - (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
    }
}
