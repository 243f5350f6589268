import Foundation
@testable import ParleyServer
import Testing

/// `ConversationStore` and `GroupStore` behaviour, identical on every backend.
@Suite("Store conformance: conversations and groups")
struct ConversationConformanceTests {
    @Test("a direct conversation is made once per pair, both members active", arguments: StoreBackend.allCases)
    func direct(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let (first, created) = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 10)
            #expect(created)
            let (again, createdAgain) = try await store.createConversation(kind: .direct, creatorID: bob, memberIDs: [ann], now: 11)
            #expect(!createdAgain && again == first)
            #expect(try await store.directConversation(between: bob, and: ann) == first)
            #expect(try await store.conversation(id: first.id) == first)
            #expect(try await store.activeMemberIDs(conversationID: first.id) == [ann, bob].sorted())
            #expect(try await store.memberStatus(conversationID: first.id, accountID: bob) == .active)
            #expect(try await store.contactIDs(accountID: ann) == [bob])
            let devices = try await store.activeMemberDevices(conversationID: first.id)
            #expect(devices.map(\.accountID).sorted() == [ann, bob].sorted() && devices.allSatisfy { $0.deviceID == 1 })

            // Deleted, it is gone for everyone; opening it again makes a new one.
            try await store.deleteConversation(conversationID: first.id, now: 12)
            #expect(try await store.conversation(id: first.id) == nil)
            #expect(try await store.directConversation(between: ann, and: bob) == nil)
            #expect(try await store.activeMemberDevices(conversationID: first.id).isEmpty)
            let (fresh, createdFresh) = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 13)
            #expect(createdFresh && fresh.id != first.id)
        }
    }

    @Test("two people opening the same direct conversation at once get one conversation", arguments: StoreBackend.allCases)
    func directRace(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let (creator, other) = index.isMultiple(of: 2) ? (ann, bob) : (bob, ann)
                        return try await store.createConversation(kind: .direct, creatorID: creator, memberIDs: [other], now: 5).conversation.id
                    }
                }
                return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
        }
    }

    @Test("active groups count what list_conversations lists of groups: not invitations, left, removed or deleted groups, nor direct conversations", arguments: StoreBackend.allCases)
    func activeGroups(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            var made: [Int64] = []
            for index in 0..<4 {
                made.append(try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob], now: 10 + Int64(index)).conversation.id)
            }
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 20)
            #expect(try await store.activeGroups(accountID: ann) == 4)
            #expect(try await store.activeGroups(accountID: bob) == 0, "invitations are not memberships")
            try await store.setMemberStatus(conversationID: made[0], accountID: bob, status: .active, now: 30)
            try await store.setMemberStatus(conversationID: made[1], accountID: bob, status: .active, now: 30)
            #expect(try await store.activeGroups(accountID: bob) == 2)
            try await store.setMemberStatus(conversationID: made[0], accountID: ann, status: .left, now: 40)
            try await store.setMemberStatus(conversationID: made[1], accountID: bob, status: .removed, now: 40)
            try await store.deleteConversation(conversationID: made[2], now: 50)
            #expect(try await store.activeGroups(accountID: ann) == 2)
            #expect(try await store.activeGroups(accountID: bob) == 1)
        }
    }

    @Test("an invitation that went away unanswered is remembered: its group deleted or the invitee withdrawn, per creator and time; answered ones are not",
          arguments: StoreBackend.allCases)
    func invitationWithdrawn(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            #expect(try await !store.invitationWithdrawn(invitee: bob, creatorID: ann, since: 0), "never invited")
            let deleted = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob], now: 10).conversation.id
            #expect(try await !store.invitationWithdrawn(invitee: bob, creatorID: ann, since: 0), "invited, still waiting")
            try await store.deleteConversation(conversationID: deleted, now: 20)
            #expect(try await store.invitationWithdrawn(invitee: bob, creatorID: ann, since: 20))
            #expect(try await !store.invitationWithdrawn(invitee: bob, creatorID: ann, since: 21), "deleted before the window")
            #expect(try await !store.invitationWithdrawn(invitee: bob, creatorID: cy, since: 0), "another creator")
            #expect(try await !store.invitationWithdrawn(invitee: cy, creatorID: ann, since: 0), "another invitee")

            // Withdrawn from a live group: remembered from the withdrawal's time.
            let live = try await store.createConversation(kind: .group, creatorID: cy, memberIDs: [bob], now: 30).conversation.id
            try await store.setMemberStatus(conversationID: live, accountID: bob, status: .withdrawn, now: 40)
            #expect(try await store.invitationWithdrawn(invitee: bob, creatorID: cy, since: 40))
            #expect(try await !store.invitationWithdrawn(invitee: bob, creatorID: cy, since: 41))

            // Answered before the end, nothing went away unanswered: accepted then deleted, or a member removed.
            let accepted = try await store.createConversation(kind: .group, creatorID: bob, memberIDs: [ann, cy], now: 50).conversation.id
            try await store.setMemberStatus(conversationID: accepted, accountID: ann, status: .active, now: 55)
            try await store.setMemberStatus(conversationID: accepted, accountID: cy, status: .active, now: 55)
            try await store.setMemberStatus(conversationID: accepted, accountID: cy, status: .removed, now: 60)
            try await store.deleteConversation(conversationID: accepted, now: 70)
            #expect(try await !store.invitationWithdrawn(invitee: ann, creatorID: bob, since: 0))
            #expect(try await !store.invitationWithdrawn(invitee: cy, creatorID: bob, since: 0))
            // A declined invitation leaves no row: declining is the invitee's own answer.
            let declined = try await store.createConversation(kind: .group, creatorID: bob, memberIDs: [cy], now: 80).conversation.id
            try await store.deleteMember(conversationID: declined, accountID: cy)
            #expect(try await !store.invitationWithdrawn(invitee: cy, creatorID: bob, since: 0))
        }
    }

    @Test("unanswered invitations are counted per creator: accepted, deleted-group and other creators' ones do not count", arguments: StoreBackend.allCases)
    func pendingInvitationsPerCreator(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            var groups: [Int64] = []
            for index in 0..<4 {
                groups.append(try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob], now: 20 + Int64(index)).conversation.id)
            }
            _ = try await store.createConversation(kind: .group, creatorID: cy, memberIDs: [bob], now: 30)
            _ = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 31)
            #expect(try await store.pendingInvitations(accountID: bob, creatorID: ann) == 4)
            #expect(try await store.pendingInvitations(accountID: bob, creatorID: cy) == 1)
            #expect(try await store.pendingInvitations(accountID: ann, creatorID: bob) == 0)
            try await store.setMemberStatus(conversationID: groups[0], accountID: bob, status: .active, now: 40)
            try await store.deleteMember(conversationID: groups[1], accountID: bob)
            try await store.deleteConversation(conversationID: groups[2], now: 41)
            #expect(try await store.pendingInvitations(accountID: bob, creatorID: ann) == 1)
        }
    }

    @Test("group members are invited, accept, leave; invitations and summaries follow", arguments: StoreBackend.allCases)
    func groups(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            let (group, _) = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, cy], now: 20)
            #expect(group.kind == .group)
            #expect(try await store.activeMemberIDs(conversationID: group.id) == [ann])
            #expect(try await store.invitations(accountID: bob) == [group])
            try await store.setMemberStatus(conversationID: group.id, accountID: bob, status: .active, now: 21)
            try await store.deleteMember(conversationID: group.id, accountID: cy)
            #expect(try await store.memberStatus(conversationID: group.id, accountID: cy) == nil)
            #expect(try await store.invitations(accountID: bob).isEmpty)
            #expect(try await store.activeMemberIDs(conversationID: group.id) == [ann, bob].sorted())

            _ = try await store.insertMessage(Sample.message(group.id, from: ann, to: [(bob, 1)], clientID: "g1"), now: 30)
            _ = try await store.insertMessage(Sample.message(group.id, from: ann, to: [(bob, 1)], clientID: "g2"), now: 31)
            let summary = try #require(try await store.conversations(accountID: bob).first)
            #expect(summary.conversation.id == group.id && summary.memberIDs == [ann, bob].sorted())
            #expect(summary.unreadCount == 2 && summary.lastMessageAt == 31)
            #expect(try await store.markRead(conversationID: group.id, accountID: bob, upTo: 30) == 30)
            #expect(try await store.markRead(conversationID: group.id, accountID: bob, upTo: 5) == 30)
            #expect(try await store.conversations(accountID: bob).first?.unreadCount == 1)
            // The sender's own messages are never unread to her.
            #expect(try await store.conversations(accountID: ann).first?.unreadCount == 0)

            try await store.setMemberStatus(conversationID: group.id, accountID: bob, status: .left, now: 40)
            #expect(try await store.conversations(accountID: bob).isEmpty)
            #expect(try await store.contactIDs(accountID: ann).isEmpty)
            #expect(try await store.memberStatus(conversationID: group.id, accountID: bob) == .left)
        }
    }

    @Test("what someone the account blocked sends is neither unread nor recent activity to it", arguments: StoreBackend.allCases)
    func blockedSendersAreNotCounted(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let eve = try await Sample.activeAccount(store, "eve@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let (group, _) = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [eve, bob], now: 20)
            try await store.setMemberStatus(conversationID: group.id, accountID: eve, status: .active, now: 21)
            try await store.setMemberStatus(conversationID: group.id, accountID: bob, status: .active, now: 21)
            _ = try await store.insertMessage(Sample.message(group.id, from: bob, to: [(ann, 1)], clientID: "b1"), now: 30)
            #expect(try await store.block(eve, by: ann, limit: 100, now: 31))
            _ = try await store.insertMessage(Sample.message(group.id, from: eve, to: [(ann, 1)], clientID: "e1"), now: 40)
            _ = try await store.insertMessage(Sample.message(group.id, from: eve, to: [(ann, 1)], clientID: "e2"), now: 41)
            let annSees = try #require(try await store.conversations(accountID: ann).first)
            #expect(annSees.unreadCount == 1 && annSees.lastMessageAt == 30, "only bob's: \(annSees.unreadCount), \(String(describing: annSees.lastMessageAt))")
            // Bob, who blocked no one, sees all of it.
            let bobSees = try #require(try await store.conversations(accountID: bob).first)
            #expect(bobSees.unreadCount == 2 && bobSees.lastMessageAt == 41)
        }
    }

    @Test("conversation summaries come most recent activity first", arguments: StoreBackend.allCases)
    func summaryOrder(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let cy = try await Sample.activeAccount(store, "cy@example.org")
            let withBob = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 1).conversation
            let withCy = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [cy], now: 2).conversation
            #expect(try await store.conversations(accountID: ann).map(\.conversation.id) == [withCy.id, withBob.id])
            _ = try await store.insertMessage(Sample.message(withBob.id, from: bob, to: [(ann, 1)], clientID: "b1"), now: 50)
            #expect(try await store.conversations(accountID: ann).map(\.conversation.id) == [withBob.id, withCy.id])
        }
    }
}
