import Foundation
@testable import ParleyServer
import Testing

/// `ProfileStore`, `FileStore` and `LocationStore` behaviour, identical on every backend.
@Suite("Store conformance: profiles, files, location")
struct ProfileFileLocationConformanceTests {
    @Test("profile fields set, replace and clear; display names and avatars round-trip", arguments: StoreBackend.allCases)
    func profiles(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            try await store.setProfileFields(accountID: ann, [
                ProfileField(name: "status", value: "here", visibility: .contacts),
                ProfileField(name: "bio", value: "hi", visibility: .everyone),
            ])
            try await store.setProfileFields(accountID: ann, [
                ProfileField(name: "status", value: "away", visibility: .nobody), ProfileField(name: "bio", value: "", visibility: .everyone),
            ])
            #expect(try await store.profileFields(accountID: ann) == [ProfileField(name: "status", value: "away", visibility: .nobody)])
            try await store.setDisplayName(accountID: ann, "Ann B.")
            #expect(try await store.account(id: ann)?.displayName == "Ann B.")
            #expect(try await store.avatar(.account(ann)) == nil)
            try await store.setAvatar(.account(ann), blob: Sample.bytes(300, 5), now: 7)
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [], now: 8).conversation.id
            try await store.setAvatar(.group(group), blob: [9], now: 8)
            try await store.setAvatar(.account(ann), blob: Sample.bytes(200, 6), now: 9)
            let avatar = try #require(try await store.avatar(.account(ann)))
            #expect(avatar.blob == Sample.bytes(200, 6) && avatar.updatedAt == 9)
            #expect(try await store.avatar(.group(group))?.blob == [9])
        }
    }

    @Test("uploads resume at the received offset, refuse gaps and overruns, read back any range, and respect the quota", arguments: StoreBackend.allCases)
    func files(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let payload = Sample.bytes(1_000, 3)
            let file = try await store.createFile(
                ownerID: p.ann, conversationID: p.conversation, size: 1_000, sha256: Sample.bytes(32, 4), quota: 1_500, now: 1)
            #expect(file.received == 0 && !file.complete)
            #expect(try await store.appendChunk(fileID: file.id, offset: 0, data: Array(payload[0..<400])) == 400)
            await #expect(throws: StoreError.conflict("chunk offset")) {
                _ = try await store.appendChunk(fileID: file.id, offset: 0, data: Array(payload[0..<400]))
            }
            await #expect(throws: StoreError.conflict("chunk offset")) {
                _ = try await store.appendChunk(fileID: file.id, offset: 500, data: [1])
            }
            await #expect(throws: StoreError.conflict("chunk offset")) {
                _ = try await store.appendChunk(fileID: file.id, offset: 400, data: Sample.bytes(601, 1))
            }
            // Resuming: the record says where to continue.
            #expect(try await store.file(id: file.id)?.received == 400)
            #expect(try await store.appendChunk(fileID: file.id, offset: 400, data: Array(payload[400...])) == 1_000)
            #expect(try await store.readFile(fileID: file.id, offset: 0, length: 2_000) == payload)
            #expect(try await store.readFile(fileID: file.id, offset: 350, length: 100) == Array(payload[350..<450]))
            #expect(try await store.readFile(fileID: file.id, offset: 1_000, length: 10).isEmpty)
            try await store.completeFile(fileID: file.id)
            #expect(try await store.file(id: file.id)?.complete == true)
            await #expect(throws: StoreError.conflict("chunk offset")) {
                _ = try await store.appendChunk(fileID: file.id, offset: 1_000, data: [])
            }

            await #expect(throws: StoreError.conflict("file quota")) {
                _ = try await store.createFile(
                    ownerID: p.ann, conversationID: p.conversation, size: 501, sha256: Sample.bytes(32, 4), quota: 1_500, now: 2)
            }
            let fits = try await store.createFile(
                ownerID: p.ann, conversationID: p.conversation, size: 500, sha256: Sample.bytes(32, 4), quota: 1_500, now: 2)
            try await store.deleteFile(fileID: fits.id)
            #expect(try await store.file(id: fits.id) == nil)
            await #expect(throws: StoreError.conflict("file")) {
                _ = try await store.appendChunk(fileID: fits.id, offset: 0, data: [1])
            }
        }
    }

    @Test("concurrent uploads cannot pass the quota together", arguments: StoreBackend.allCases)
    func quotaRace(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await MessageConformanceTests.pair(store)
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        (try? await store.createFile(
                            ownerID: p.ann, conversationID: p.conversation, size: 400, sha256: Sample.bytes(32, 4), quota: 1_000, now: 1)) != nil
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 2)
        }
    }

    @Test("routes: one live route per owner, idempotent waypoints, limits, paging and followers", arguments: StoreBackend.allCases)
    func location(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let old = try await store.startRoute(ownerID: ann, now: 1)
            let route = try await store.startRoute(ownerID: ann, now: 2)
            let ended = try #require(try await store.route(id: old.id))
            #expect(!ended.active && ended.endedAt == 2)
            #expect(try await store.latestRoute(ownerID: ann) == route)
            #expect(try await store.routes(ownerID: ann, beforeID: nil, limit: 10).map(\.id) == [route.id, old.id])
            #expect(try await store.routes(ownerID: ann, beforeID: route.id, limit: 10).map(\.id) == [old.id])

            let batch = [NewWaypoint(timestamp: 10, data: "v2:a"), NewWaypoint(timestamp: 11, data: "v2:b")]
            let stored = try await store.appendWaypoints(routeID: route.id, batch, limit: 3, now: 12)
            #expect(stored.map(\.timestamp) == [10, 11])
            #expect(try await store.appendWaypoints(routeID: route.id, batch, limit: 3, now: 13).isEmpty)
            await #expect(throws: StoreError.conflict("route waypoint limit")) {
                _ = try await store.appendWaypoints(
                    routeID: route.id, [NewWaypoint(timestamp: 12, data: "c"), NewWaypoint(timestamp: 13, data: "d")], limit: 3, now: 14)
            }
            #expect(try await store.route(id: route.id)?.waypointCount == 2)
            let page = try await store.waypoints(routeID: route.id, afterID: stored[0].id, limit: 10)
            #expect(page == [stored[1]])
            try await store.deactivateRoute(id: route.id, now: 20)
            await #expect(throws: StoreError.conflict("inactive route")) {
                _ = try await store.appendWaypoints(routeID: route.id, [NewWaypoint(timestamp: 30, data: "e")], limit: 3, now: 30)
            }
            await #expect(throws: StoreError.conflict("route")) {
                _ = try await store.appendWaypoints(routeID: 999_999, [NewWaypoint(timestamp: 30, data: "e")], limit: 3, now: 30)
            }
            try await store.deleteRoute(id: route.id)
            #expect(try await store.route(id: route.id) == nil)
            #expect(try await store.waypoints(routeID: route.id, afterID: 0, limit: 10).isEmpty)

            #expect(try await store.allowFollower(ownerID: ann, followerID: bob, now: 5))
            #expect(try await !store.allowFollower(ownerID: ann, followerID: bob, now: 6))
            #expect(try await store.isFollower(ownerID: ann, followerID: bob))
            let followers = try await store.followers(ownerID: ann)
            #expect(followers.map(\.accountID) == [bob] && followers.map(\.since) == [5])
            #expect(try await store.following(followerID: bob) == [ann])
            #expect(try await store.revokeFollower(ownerID: ann, followerID: bob))
            #expect(try await !store.revokeFollower(ownerID: ann, followerID: bob))
            #expect(try await !store.isFollower(ownerID: ann, followerID: bob))
        }
    }

    @Test("waypoints count against their owner over every route still kept: a batch past it stores nothing; a deleted route makes room",
          arguments: StoreBackend.allCases)
    func ownerWaypointLimit(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            func points(_ range: Range<Int64>) -> [NewWaypoint] { range.map { NewWaypoint(timestamp: $0, data: "v2:\($0)") } }
            let first = try await store.startRoute(ownerID: ann, now: 1)
            #expect(try await store.appendWaypoints(routeID: first.id, points(0..<4), limit: 5, ownerLimit: 6, now: 2).count == 4)
            let second = try await store.startRoute(ownerID: ann, now: 3)  // ends the first, which still counts
            #expect(try await store.appendWaypoints(routeID: second.id, points(10..<12), limit: 5, ownerLimit: 6, now: 4).count == 2)
            await #expect(throws: StoreError.conflict("account waypoint limit")) {
                _ = try await store.appendWaypoints(routeID: second.id, points(12..<13), limit: 5, ownerLimit: 6, now: 5)
            }
            #expect(try await store.waypoints(routeID: second.id, afterID: 0, limit: 10).count == 2, "the refused batch stored nothing")
            #expect(try await store.route(id: second.id)?.waypointCount == 2)
            // Another person's routes are theirs alone.
            let bobs = try await store.startRoute(ownerID: bob, now: 6)
            #expect(try await store.appendWaypoints(routeID: bobs.id, points(0..<5), limit: 5, ownerLimit: 6, now: 7).count == 5)
            // Deleting the old route frees its four at once.
            try await store.deleteRoute(id: first.id)
            #expect(try await store.appendWaypoints(routeID: second.id, points(12..<15), limit: 5, ownerLimit: 6, now: 8).count == 3)
        }
    }
}
