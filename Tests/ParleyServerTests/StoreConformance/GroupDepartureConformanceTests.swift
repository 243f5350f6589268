import Foundation
@testable import ParleyServer
import Testing

/// Leaving a group (`leaveGroup`): a creator's rights pass to the active member who joined first, never to an invitee
/// or someone already gone; with no member to take them the group is deleted. Same on both stores.
@Suite("Store conformance: a group's creator leaving")
struct GroupDepartureConformanceTests {
    /// Ann made a group with Bob, Cat and Dan (created at 3). Cat joins at 4, Bob at 5; Dan stays invited.
    struct Group {
        let ann: Int64, bob: Int64, cat: Int64, dan: Int64
        let id: Int64
    }

    static func group(_ store: any Store) async throws -> Group {
        let ann = try await Sample.activeAccount(store, "ann@example.org")
        let bob = try await Sample.activeAccount(store, "bob@example.org")
        let cat = try await Sample.activeAccount(store, "cat@example.org")
        let dan = try await Sample.activeAccount(store, "dan@example.org")
        let id = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, cat, dan], now: 3).conversation.id
        try await store.setMemberStatus(conversationID: id, accountID: cat, status: .active, now: 4)
        try await store.setMemberStatus(conversationID: id, accountID: bob, status: .active, now: 5)
        return Group(ann: ann, bob: bob, cat: cat, dan: dan, id: id)
    }

    @Test("a member who is not the creator just leaves; the creator stays", arguments: StoreBackend.allCases)
    func memberLeaves(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.bob, now: 10) == .left)
            #expect(try await store.conversation(id: g.id)?.creatorID == g.ann)
            #expect(try await store.memberStatus(conversationID: g.id, accountID: g.bob) == .left)
            #expect(try await store.activeMemberIDs(conversationID: g.id).sorted() == [g.ann, g.cat].sorted())
        }
    }

    @Test("the creator's rights go to the active member who joined first, then down the line", arguments: StoreBackend.allCases)
    func creatorLeaves(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            // Cat joined at 4, Bob at 5: Cat, although Bob's account is older.
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.ann, now: 10) == .handedOver(heir: g.cat))
            #expect(try await store.conversation(id: g.id)?.creatorID == g.cat)
            #expect(try await store.memberStatus(conversationID: g.id, accountID: g.ann) == .left)
            // Ann is gone, so she is no heir when Cat leaves: Bob is, the only active member (Dan is only invited).
            #expect(try await store.invitations(accountID: g.dan).map(\.id) == [g.id])
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.cat, now: 11) == .handedOver(heir: g.bob))
            // With no member left the group goes, and Dan's invitation to it with it: nobody would be there.
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.bob, now: 12) == .deleted)
            #expect(try await store.conversation(id: g.id) == nil)
            #expect(try await store.invitations(accountID: g.dan).isEmpty)
        }
    }

    @Test("between members who joined at the same moment, the lower account id", arguments: StoreBackend.allCases)
    func tie(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            try await store.setMemberStatus(conversationID: g.id, accountID: g.bob, status: .active, now: 4)
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.ann, now: 10) == .handedOver(heir: min(g.bob, g.cat)))
        }
    }

    @Test("the last one out deletes the group; removed and departed members inherit nothing",
          arguments: StoreBackend.allCases)
    func lastOneOut(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            try await store.setMemberStatus(conversationID: g.id, accountID: g.bob, status: .removed, now: 6)
            try await store.setMemberStatus(conversationID: g.id, accountID: g.dan, status: .withdrawn, now: 6)
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.cat, now: 7) == .left)
            #expect(try await store.leaveGroup(conversationID: g.id, accountID: g.ann, now: 8) == .deleted)
            #expect(try await store.conversation(id: g.id) == nil, "deleted, as by delete_conversation")
            #expect(try await store.activeGroups(accountID: g.cat) == 0)
        }
    }

    @Test("an account deleted follows the same rule: a departed member or an invitee is no heir", arguments: StoreBackend.allCases)
    func deletedAccount(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let g = try await Self.group(store)
            try await store.setMemberStatus(conversationID: g.id, accountID: g.cat, status: .left, now: 6)
            try await store.setMemberStatus(conversationID: g.id, accountID: g.bob, status: .removed, now: 6)
            _ = try await store.deleteAccount(id: g.ann)
            #expect(try await store.conversation(id: g.id) == nil, "nobody was left in it")
        }
    }
}
