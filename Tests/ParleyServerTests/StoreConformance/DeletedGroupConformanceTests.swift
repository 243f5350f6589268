import Foundation
@testable import ParleyServer
import Testing

/// What a deleted group leaves behind, identical on every backend: its picture goes at once, the rest once the
/// deletion is past the retention TTL (docs/OPERATIONS.md §5.1). Without this an account could grow the database
/// for ever by creating, decorating and deleting groups.
@Suite("Store conformance: deleted groups")
struct DeletedGroupConformanceTests {
    static let day = RetentionPolicy.day
    static let start: Int64 = 100 * day

    @Test("a deleted group's picture goes with it, and none can be set for it afterwards", arguments: StoreBackend.allCases)
    func pictureGoesWithTheGroup(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let doomed = try await store.createConversation(kind: .group, creatorID: p.ann, memberIDs: [p.bob], now: 10).conversation.id
            let kept = try await store.createConversation(kind: .group, creatorID: p.ann, memberIDs: [p.bob], now: 11).conversation.id
            let picture = [UInt8](repeating: 9, count: 256 * 1024)
            try await store.setAvatar(.group(doomed), blob: picture, now: 12)
            try await store.setAvatar(.group(kept), blob: [1, 2, 3], now: 12)
            #expect(try await store.avatar(.group(doomed))?.blob == picture)

            try await store.deleteConversation(conversationID: doomed, now: 13)
            #expect(try await store.avatar(.group(doomed)) == nil, "the deleted group's picture went with it")
            #expect(try await store.avatar(.group(kept))?.blob == [1, 2, 3], "another group's stayed")

            // A picture set after the deletion (a request racing it) is not stored; a person's own still is.
            try await store.setAvatar(.group(doomed), blob: picture, now: 14)
            #expect(try await store.avatar(.group(doomed)) == nil)
            try await store.setAvatar(.group(999_999), blob: picture, now: 14)
            #expect(try await store.avatar(.group(999_999)) == nil, "nor for a group that never existed")
            try await store.setAvatar(.account(p.ann), blob: [4, 5], now: 15)
            #expect(try await store.avatar(.account(p.ann))?.blob == [4, 5])
        }
    }

    @Test("a group deleted longer than the TTL ago goes with its members once nothing of it is left; its id is never used again",
          arguments: StoreBackend.allCases)
    func deletedGroupsAreSwept(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let t0 = Self.start
            func group(at now: Int64) async throws -> Int64 {
                try await store.createConversation(kind: .group, creatorID: p.ann, memberIDs: [p.bob], now: now).conversation.id
            }
            func send(in conversation: Int64, _ id: String, at now: Int64) async throws {
                _ = try await store.insertMessage(Sample.message(conversation, from: p.ann, to: [(p.bob, 1)], clientID: id), now: now)
            }
            // Deleted long ago, with a message and an upload from before its deletion: all of it goes.
            let old = try await group(at: t0)
            try await send(in: old, "old", at: t0 + 1)
            let file = try await store.createFile(ownerID: p.ann, conversationID: old, size: 4, sha256: Sample.bytes(32), quota: 1 << 30, now: t0 + 2)
            _ = try await store.appendChunk(fileID: file.id, offset: 0, data: [1, 2, 3, 4])
            try await store.completeFile(fileID: file.id)
            try await store.deleteConversation(conversationID: old, now: t0 + 3)
            // Deleted recently: stays, so a device away for less than the TTL still finds it gone rather than unknown.
            let recent = try await group(at: t0 + 4)
            try await store.deleteConversation(conversationID: recent, now: t0 + 25 * Self.day)
            // Never deleted, however old: state, not traffic.
            let live = try await group(at: t0 + 5)
            // Deleted long ago but holding a younger message (only the store can do this): waits for the message.
            let holding = try await group(at: t0 + 6)
            try await store.deleteConversation(conversationID: holding, now: t0 + 7)
            try await send(in: holding, "young", at: t0 + 20 * Self.day)

            let before = try await store.retainedRowCounts()
            let now = t0 + 30 * Self.day + 100
            let report = try await store.sweepExpired(now: now, policy: RetentionPolicy(days: 30, batchSize: 1))
            #expect(report.messages == 1 && report.envelopes == 0 && report.files == 1 && report.fileChunks == 1)
            #expect(report.memberships == 2, "ann's and bob's membership of the old group")
            #expect(report.conversations == 1)
            let after = try await store.retainedRowCounts()
            #expect(after["conversations"] == (before["conversations"] ?? 0) - 1)
            #expect(after["members"] == (before["members"] ?? 0) - 2)
            #expect(try await store.memberStatus(conversationID: old, accountID: p.ann) == nil)
            #expect(try await store.memberStatus(conversationID: recent, accountID: p.ann) == .active)
            #expect(try await store.memberStatus(conversationID: holding, accountID: p.bob) == .invited)
            #expect(try await store.conversation(id: live) != nil)
            #expect(try await store.sweepExpired(now: now, policy: RetentionPolicy(days: 30)) == SweepReport(), "a second sweep finds nothing")

            // Once the younger message is past the TTL too, the group that held it goes as well.
            let later = try await store.sweepExpired(now: t0 + 50 * Self.day + 100, policy: RetentionPolicy(days: 30))
            #expect(later.messages == 1 && later.envelopes == 1 && later.memberships == 2 && later.conversations == 1)
            #expect(try await store.memberStatus(conversationID: holding, accountID: p.bob) == nil)
            #expect(try await store.memberStatus(conversationID: recent, accountID: p.bob) == .invited, "25 + 30 days are not past yet")

            // Ids are never used again: a new group is numbered after every group ever made.
            #expect(try await group(at: t0 + 51 * Self.day) > holding)
            #expect(try await store.conversation(id: old) == nil)
        }
    }
}
