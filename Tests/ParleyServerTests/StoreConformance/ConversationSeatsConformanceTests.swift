import Foundation
@testable import ParleyServer
import Testing

/// `GroupStore.invite` (seats) and `ConversationStore.conversation(id:accountID:)`, identical on every backend.
@Suite("Store conformance: group seats and one conversation")
struct ConversationSeatsConformanceTests {
    @Test("invite counts members and invitations against the seats, at once too; left and removed people free theirs",
          arguments: StoreBackend.allCases)
    func seats(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            var people: [Int64] = []
            for index in 0..<19 { people.append(try await Sample.activeAccount(store, "p\(index)@example.org")) }
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [people[0]], now: 10).conversation.id
            try await store.setMemberStatus(conversationID: group, accountID: people[0], status: .active, now: 11)
            // Two seats taken (ann, p0) of four: p1 fits; sixteen invitations at once for the last seat: one gets it.
            #expect(try await store.invite(conversationID: group, accountID: people[1], seats: 4, now: 12))
            let winners = try await withThrowingTaskGroup(of: Bool.self) { tasks in
                for person in people[2...17] { tasks.addTask { try await store.invite(conversationID: group, accountID: person, seats: 4, now: 13) } }
                return try await tasks.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)
            #expect(!(try await store.invite(conversationID: group, accountID: people[18], seats: 4, now: 14)))
            #expect(try await store.memberStatus(conversationID: group, accountID: people[18]) == nil)
            // p0 leaves: a seat is free again.
            try await store.setMemberStatus(conversationID: group, accountID: people[0], status: .left, now: 15)
            #expect(try await store.invite(conversationID: group, accountID: people[18], seats: 4, now: 16))
            #expect(try await store.memberStatus(conversationID: group, accountID: people[18]) == .invited)
        }
    }

    @Test("one conversation reads as the list has it, and only for an active member", arguments: StoreBackend.allCases)
    func oneConversation(_ backend: StoreBackend) async throws {
        try await backend.withStore { store in
            let ann = try await Sample.activeAccount(store, "ann@example.org")
            let bob = try await Sample.activeAccount(store, "bob@example.org")
            let carol = try await Sample.activeAccount(store, "carol@example.org")
            let direct = try await store.createConversation(kind: .direct, creatorID: ann, memberIDs: [bob], now: 10).conversation.id
            let group = try await store.createConversation(kind: .group, creatorID: ann, memberIDs: [bob, carol], now: 11).conversation.id
            try await store.setMemberStatus(conversationID: group, accountID: carol, status: .active, now: 12)
            _ = try await store.insertMessage(Sample.message(direct, from: bob, to: [(ann, 1), (bob, 1)], clientID: "m1"), now: 13)

            let listed = try await store.conversations(accountID: ann)
            for summary in listed {
                #expect(try await store.conversation(id: summary.conversation.id, accountID: ann) == summary)
            }
            #expect(try await store.conversation(id: group, accountID: ann)?.memberIDs == [ann, carol].sorted())
            #expect(try await store.conversation(id: direct, accountID: ann)?.unreadCount == 1)
            // Bob is only invited to the group; carol is not in the direct one; no conversation has id 999.
            #expect(try await store.conversation(id: group, accountID: bob) == nil)
            #expect(try await store.conversation(id: direct, accountID: carol) == nil)
            #expect(try await store.conversation(id: 999, accountID: ann) == nil)
            try await store.deleteConversation(conversationID: group, now: 14)
            #expect(try await store.conversation(id: group, accountID: ann) == nil)
        }
    }
}
