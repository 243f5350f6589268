import Foundation
@testable import ParleyServer
import Testing

/// `AdminStore`: deleting an account leaves nothing of it, disabling and summaries, on every backend.
@Suite("Store conformance: account deletion and administration")
struct AccountDeletionConformanceTests {
    /// Ann with something in every table, Bob and Carol around her; returns their ids and what Ann is in.
    func populated(_ store: any Store) async throws -> (ann: Int64, bob: Int64, carol: Int64, direct: Int64, annsGroup: Int64, bobsGroup: Int64) {
        let ann = try await Sample.activeAccount(store, "ann@example.org")
        let bob = try await Sample.activeAccount(store, "bob@example.org")
        let carol = try await Sample.activeAccount(store, "carol@example.org")
        let direct = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 10).conversation.id
        let annsGroup = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, carol], now: 11).conversation.id
        for member in [bob, carol] { try await store.setMemberStatus(conversationID: annsGroup, accountID: member, status: .active, now: 12 + member) }
        let bobsGroup = try await store.createConversation(kind: .group, creatorID: bob, memberIDs: [ann], now: 13).conversation.id
        try await store.setMemberStatus(conversationID: bobsGroup, accountID: ann, status: .active, now: 14)
        let toBob = try await store.insertMessage(Sample.message(direct, from: ann, to: [(bob, 1)], clientID: "a1"), now: 20)
        let fromBob = try await store.insertMessage(Sample.message(direct, from: bob, to: [(ann, 1)], clientID: "b1"), now: 21)
        let inGroup = try await store.insertMessage(Sample.message(bobsGroup, from: ann, to: [(bob, 1)], clientID: "a2"), now: 22)
        let bobsInGroup = try await store.insertMessage(Sample.message(bobsGroup, from: bob, to: [(ann, 1)], clientID: "b2"), now: 23)
        _ = try await store.toggleReaction(messageID: bobsInGroup.id, accountID: ann, emoji: "👍", now: 24)
        #expect(try await store.setPinned(messageID: bobsInGroup.id, by: ann, limit: 100, now: 25))
        _ = (toBob, fromBob, inGroup)
        let file = try await store.createFile(ownerID: ann, conversationID: bobsGroup, size: 4, sha256: Sample.bytes(32), quota: 1 << 20, now: 26)
        _ = try await store.appendChunk(fileID: file.id, offset: 0, data: [1, 2, 3, 4])
        let route = try await store.startRoute(ownerID: ann, now: 27)
        _ = try await store.appendWaypoints(routeID: route.id, [NewWaypoint(timestamp: 1, data: "x")], limit: 10, now: 28)
        _ = try await store.allowFollower(ownerID: ann, followerID: bob, now: 29)
        _ = try await store.allowFollower(ownerID: carol, followerID: ann, now: 29)
        try await store.setProfileFields(accountID: ann, [ProfileField(name: "username", value: "ann", visibility: .everyone)])
        try await store.setAvatar(.account(ann), blob: [9, 9], now: 30)
        _ = try await store.block(carol, by: ann, limit: 100, now: 31)
        _ = try await store.block(ann, by: bob, limit: 100, now: 31)
        try await store.unblock(ann, by: bob)
        _ = try await store.block(ann, by: carol, limit: 100, now: 31)
        try await store.saveLoginNonce(Sample.bytes(32, 40), accountID: ann, deviceID: 1, expiresAt: 10_000)
        try await store.saveLockout(subject: "account:ann@example.org", LockoutRecord(failures: 1, lockedUntil: 0))
        try await store.saveLockout(subject: "account-address:ann@example.org 127.0.0.1", LockoutRecord(failures: 1, lockedUntil: 0))
        try await store.saveRecoveryCode(email: "ann@example.org", Sample.verification())
        _ = try await store.createPairing(PairingConformanceTests.pairing(7), now: 0, maximumOpen: 3)
        return (ann, bob, carol, direct, annsGroup, bobsGroup)
    }

    @Test("a deleted account leaves no row behind; its direct conversation goes, its groups stay with an heir", arguments: StoreBackend.allCases)
    func deletionLeavesNothing(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await populated(store)
            // Ann has Bob's messages (in the group and in their direct conversation), and Bob her group message.
            for (account, ids) in [(p.ann, try await store.messages(accountID: p.ann, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id)),
                                   (p.bob, try await store.messages(accountID: p.bob, deviceID: 1, afterTimestamp: 0, limit: 10).map(\.id))] {
                #expect(try await store.confirmDelivery(accountID: account, deviceID: 1, messageIDs: ids, now: 24).count == 2)
            }
            #expect(try await AccountTrace.leftovers(store, accountID: p.ann, email: "ann@example.org")["deliveries"] == 2)
            #expect(try await AccountTrace.leftovers(store, accountID: p.ann, email: "ann@example.org").count > 10, "the check sees the rows")
            let bobBefore = try await AccountTrace.leftovers(store, accountID: p.bob, email: "bob@example.org")

            let deleted = try #require(try await store.deleteAccount(id: p.ann))
            #expect(deleted.email == "ann@example.org" && deleted.accountID == p.ann)
            #expect(deleted.contacts == [p.bob, p.carol].sorted() || deleted.contacts == [p.bob], "\(deleted.contacts)")
            #expect(deleted.directConversations == [.init(id: p.direct, members: [p.bob])])
            #expect(deleted.groups.map(\.id) == [p.annsGroup, p.bobsGroup].sorted())
            #expect(deleted.groups.first { $0.id == p.annsGroup }?.members == [p.bob, p.carol].sorted())

            #expect(try await AccountTrace.leftovers(store, accountID: p.ann, email: "ann@example.org") == [:])
            // Bob lost what he had with Ann only: the direct conversation (and his message there), Ann's follow.
            let bobAfter = try await AccountTrace.leftovers(store, accountID: p.bob, email: "bob@example.org")
            #expect(bobAfter["members"] == (bobBefore["members"] ?? 0) - 1)
            #expect(bobAfter["messages"] == 1, "his group message stays")
            #expect(bobAfter["deliveries"] == nil && bobBefore["deliveries"] == 2, "his having her messages went with them")
            #expect(try await store.conversation(id: p.direct) == nil)
            #expect(try await store.account(id: p.ann) == nil)
            #expect(try await store.account(email: "ann@example.org") == nil)
            #expect(try await store.contactIDs(accountID: p.bob) == [p.carol])
            // Ann's group passes to the member who joined it first; Bob's group keeps Bob.
            #expect(try await store.conversation(id: p.annsGroup)?.creatorID == p.bob)
            #expect(try await store.activeMemberIDs(conversationID: p.annsGroup) == [p.bob, p.carol].sorted())
            #expect(try await store.conversation(id: p.bobsGroup)?.creatorID == p.bob)
            #expect(try await store.activeMemberIDs(conversationID: p.bobsGroup) == [p.bob])

            // Deleting again, or anyone unknown: nothing, no change. The address registers afresh.
            #expect(try await store.deleteAccount(id: p.ann) == nil)
            #expect(try await store.deleteAccount(id: 999_999) == nil)
            #expect(try await store.setDisabled(accountID: p.ann, at: 5) == false)
            let again = try await Sample.activeAccount(store, "ann@example.org")
            #expect(again != p.ann, "ids are never reused")
            #expect(try await store.account(email: "ann@example.org")?.isActive == true)
        }
    }

    @Test("a group whose last member is deleted goes with its avatar", arguments: StoreBackend.allCases)
    func lonelyGroupGoes(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [], now: 1).conversation.id
            try await store.setAvatar(.group(group), blob: [1], now: 2)
            _ = try #require(try await store.deleteAccount(id: ann))
            #expect(try await store.conversation(id: group) == nil)
            #expect(try await store.avatar(.group(group)) == nil)
            #expect(try await store.accountSummaries().isEmpty)
        }
    }

    @Test("disable and enable, summaries and statistics count what is stored", arguments: StoreBackend.allCases)
    func administration(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let p = try await populated(store)
            _ = try await store.createPendingAccount(Sample.account("dan@example.org"), verification: Sample.verification(), now: 40)
            #expect(try await store.setDisabled(accountID: p.bob, at: 50))
            #expect(try await store.account(id: p.bob)?.disabledAt == 50)
            let bob = try #require(try await store.accountSummary(id: p.bob))
            #expect(bob.email == "bob@example.org" && bob.disabledAt == 50 && bob.isActive && bob.devices == 1)
            #expect(bob.waitingEnvelopes == 2 && bob.conversations == 3)
            let ann = try #require(try await store.accountSummary(id: p.ann))
            #expect(ann.files == 1 && ann.fileBytes == 4 && ann.waitingEnvelopes == 2 && ann.waitingBytes > 0)
            #expect(try await store.accountSummaries().map(\.email) == ["ann@example.org", "bob@example.org", "carol@example.org", "dan@example.org"])
            #expect(try await store.accountSummary(id: 999_999) == nil)
            let stats = try await store.serverStats()
            #expect(stats.accounts == 3 && stats.pendingAccounts == 1 && stats.disabledAccounts == 1 && stats.devices == 4)
            #expect(stats.envelopes == 4 && stats.ciphertextBytes > 0 && stats.files == 1 && stats.fileBytes == 4 && stats.conversations == 3)
            #expect(try await store.setDisabled(accountID: p.bob, at: nil))
            #expect(try await store.account(id: p.bob)?.disabledAt == nil)
            #expect(try await store.setDisabled(accountID: 999_999, at: 1) == false)
        }
    }
}
